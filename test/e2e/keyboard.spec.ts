/** Keyboard: new chat, search, settings, copy the last reply, ↑ to edit, and the shortcuts sheet. */
import { expect, test } from "./fixtures/app-test.js";
import { composer, replies, sendMessage, setUpChat, userMessages } from "./fixtures/chat-ui.js";

test("the app's shortcuts work and are listed on ?", async ({ page, context, hermes, fakeProvider }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: hermes.origin });
  await setUpChat(hermes, fakeProvider);
  fakeProvider.enqueue("The last reply.");
  await page.goto(hermes.launchUrl);
  await sendMessage(page, "Hello");
  await expect(replies(page).last()).toContainText("The last reply.");

  await page.keyboard.press("Control+Shift+C");
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe("The last reply.");

  // ↑ in the empty composer edits the last message.
  await composer(page).focus();
  await page.keyboard.press("ArrowUp");
  await expect(userMessages(page).last().getByRole("textbox", { name: "Edited message" })).toBeFocused();
  await page.keyboard.press("Escape");

  await page.keyboard.press("Control+K");
  await expect(page.getByRole("searchbox", { name: "Search chats" })).toBeFocused();
  await page.keyboard.press("Control+Comma");
  await expect(page.getByRole("heading", { name: "Providers", exact: true })).toBeVisible();
  await page.keyboard.press("Control+N");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("New chat");
  await expect(composer(page)).toBeFocused();

  await page.getByRole("heading", { level: 1 }).click();
  await page.keyboard.press("?");
  const sheet = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(sheet).toContainText("Search chats");
  await expect(sheet).toContainText("Ctrl+Shift+C");
  await page.keyboard.press("Escape");
  await expect(sheet).toBeHidden();
});
