/**
 * A plugin command in the chat: the composer is free again as soon as the command answered, the
 * reply names the plugin that wrote it, and a chat of only commands is named after its command.
 */
import { expect, test } from "./fixtures/app-test.js";
import { chatList, composer, replies, sendMessage, setUpChat } from "./fixtures/chat-ui.js";

test("/tldr answers, names its plugin, frees the composer and names the chat", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  await setUpChat(hermes, fakeProvider, { plugins: ["tldr"] });
  fakeProvider.enqueue("A fox jumps over a dog.");
  await page.goto(hermes.launchUrl);

  await sendMessage(page, "/tldr The quick brown fox jumps over the lazy dog, again and again.");
  const reply = replies(page).last();
  await expect(reply).toContainText("A fox jumps over a dog.");
  await expect(reply.locator("header").getByText("tldr", { exact: true })).toBeVisible();
  // Nothing runs any more: no Stop, no busy hint, the composer takes the next message.
  await expect(page.getByRole("button", { name: "Stop", exact: true })).toHaveCount(0, { timeout: 2_000 });
  await expect(page.getByRole("status").filter({ hasText: "A reply is being written" })).toHaveCount(0);
  await expect(composer(page)).toHaveAttribute("placeholder", /Message Hermes/);

  // The chat is named after its command, in the header and in the sidebar.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    /^tldr: The quick brown fox jumps over the lazy dog, again…$/,
  );
  await expect(chatList(page)).toContainText("tldr: The quick brown fox");
  await page.reload();
  await expect(chatList(page)).toContainText("tldr: The quick brown fox");
});
