/**
 * The bundled action-items plugin in Chromium: a reply that makes commitments forks the session in
 * the background, the fork records them with the plugin's tool, and the card under the transcript
 * shows them; ticking one off there shows on the plugin's page too.
 */
import { expect, test } from "./fixtures/app-test.js";
import { chatList, replies, sendMessage, setUpChat } from "./fixtures/chat-ui.js";

test("a reply with commitments shows an Action items card; ticking one reaches the plugin's page", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  const { rpc } = await setUpChat(hermes, fakeProvider, { plugins: ["action-items"] });
  await rpc.call("plugins.consent", { id: "action-items", grant: ["llm.session_fork"] });
  // A chat with a title of its own asks for none, so no title request races the fork's replies.
  const { sessionId } = await rpc.call<{ sessionId: string }>("session.create", { title: "Launch plan" });
  await rpc.call("session.rename", { sessionId, title: "Launch plan" });
  fakeProvider.enqueue(
    "Sure. I'll send the report by Friday and book the room tomorrow.",
    {
      kind: "tool_calls",
      toolCalls: [
        {
          name: "record_action_item",
          arguments: { text: "Send the report", owner: "assistant", due: "Friday" },
        },
        {
          name: "record_action_item",
          arguments: { text: "Book the room", owner: "assistant", due: "tomorrow" },
        },
      ],
    },
    "Recorded 2.",
  );

  await page.goto(hermes.launchUrl);
  await chatList(page)
    .getByRole("button", { name: /Launch plan/ })
    .first()
    .click();
  await sendMessage(page, "Can you take care of the report and the room?");
  await expect(replies(page).first()).toContainText("book the room tomorrow");

  const card = page.getByRole("region", { name: "Action items" });
  await expect(card.getByRole("listitem")).toHaveCount(2);
  await expect(card).toContainText("2 open");
  await expect(card.getByRole("listitem").first()).toContainText("Send the report");
  await expect(card.getByRole("listitem").first()).toContainText("assistant · Friday");
  await card.getByRole("checkbox", { name: /Send the report/ }).check();
  await expect(card).toContainText("1 open");
  const listed = await rpc.call<{ items: { text: string; done: boolean }[] }>(
    "plugin.action-items.items.list",
    {
      session_id: sessionId,
    },
  );
  expect(listed.items.map((i) => [i.text, i.done])).toEqual([
    ["Send the report", true],
    ["Book the room", false],
  ]);
  // Nothing of the fork is in the transcript: one question, one reply.
  await expect(replies(page)).toHaveCount(1);

  const nav = page.getByRole("navigation", { name: "Plugin pages" });
  await nav.getByRole("button", { name: "Action items" }).click();
  const frame = page.frameLocator('iframe[title="action-items: Action items"]');
  await expect(frame.getByRole("status")).toHaveText("2 items, 1 open.");
  await expect(frame.getByRole("checkbox", { name: /Send the report/ })).toBeChecked();
  await frame.getByRole("checkbox", { name: /Book the room/ }).check();
  await expect(frame.getByRole("status")).toHaveText("2 items, 0 open.");
});
