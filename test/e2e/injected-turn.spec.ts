/**
 * A plugin's injected turn in the chat (docs/contract.md §9.3), against the real web host: the message shows
 * as from the plugin; while the turn waits for the chat's background work (here the memory
 * review, held up at the fake provider) the transcript says so, and a message the person types
 * ends the wait at once: the injected turn answers, then the person's message.
 */
import { expect, test, writeUserPlugin } from "./fixtures/app-test.js";
import { chatList, numberedWords, replies, sendMessage, setUpChat } from "./fixtures/chat-ui.js";

async function writeNotifier(home: string): Promise<void> {
  await writeUserPlugin(home, "notifier", {
    "plugin.yaml":
      "name: notifier\nversion: 0.0.1\ndescription: Starts a turn in the chat.\nmain: index.js\n",
    "index.js": `export function register(ctx) {
  ctx.registerCommand({
    name: "notify",
    argsHint: "<text>",
    handler: async (raw, c) => ((await ctx.injectMessage(c.sessionId, raw)) ? "Sent to the chat." : "No such chat."),
  });
}
`,
  });
}

test("an injected turn is marked as from its plugin; typing while it waits sends it on at once", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  await writeNotifier(hermes.home);
  const { rpc } = await setUpChat(hermes, fakeProvider);
  await rpc.call("plugins.rescan");
  await rpc.call("plugins.setEnabled", { id: "notifier", enabled: true });
  // A memory review after every person turn: the background work the injected turn waits for.
  await rpc.call("settings.set", { key: "memory.nudge_interval", value: 1 });
  const { sessionId } = await rpc.call<{ sessionId: string }>("session.create", {});
  await rpc.call("session.rename", { sessionId, title: "Injected" }); // no title request in between

  await page.goto(hermes.launchUrl);
  await chatList(page)
    .getByRole("button", { name: /Injected/ })
    .first()
    .click();
  fakeProvider.enqueue({ kind: "text", content: numberedWords(12, "hello"), tokensPerSecond: 12 });
  await sendMessage(page, "Hello");
  await expect.poll(() => fakeProvider.requests.length).toBe(1);
  fakeProvider.fault({ kind: "stall", afterChunks: 0 }); // the review's request hangs
  await expect(replies(page).first()).toHaveAttribute("data-status", "complete", { timeout: 15_000 });
  await expect.poll(() => fakeProvider.requests.length).toBe(2);

  await sendMessage(page, "/notify Your weekly report is ready.");
  const injected = page.getByRole("article", { name: "Message from notifier", exact: true });
  await expect(injected).toContainText("Your weekly report is ready.");
  await expect(injected).toContainText("from notifier");
  const waiting = injected.getByRole("status");
  await expect(waiting).toContainText("Waiting for background work to finish");
  await expect(injected.getByRole("button", { name: "Edit message" })).toHaveCount(0);

  fakeProvider.enqueue("Here is the report summary.", "Glad to help.");
  await sendMessage(page, "Go ahead");
  // Far inside the 120 s the wait could last: the person's message ended it.
  await expect(waiting).toHaveCount(0, { timeout: 10_000 });
  await expect(page.getByText("Here is the report summary.")).toBeVisible({ timeout: 10_000 });
  await expect(page.getByText("Glad to help.")).toBeVisible({ timeout: 10_000 });
  const order = await page.getByRole("article").evaluateAll((nodes) => nodes.map((n) => n.textContent ?? ""));
  const at = (text: string) => order.findIndex((t) => t.includes(text));
  expect(at("Your weekly report is ready.")).toBeLessThan(at("Here is the report summary."));
  expect(at("Here is the report summary.")).toBeLessThan(at("Go ahead"));
  expect(at("Go ahead")).toBeLessThan(at("Glad to help."));
});
