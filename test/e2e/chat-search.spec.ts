/**
 * Search over chats: a hit's snippet reads as plain text with the match marked, and opening the
 * hit shows the message that matched, even far up a long transcript.
 */
import { expect, test } from "./fixtures/app-test.js";
import { replies, sendMessage, setUpChat, userMessages } from "./fixtures/chat-ui.js";

test("a hit shows plain text with the match marked and opens at the matching message", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  await setUpChat(hermes, fakeProvider);
  const lines = Array.from({ length: 80 }, (_, i) => `line${i + 1}`).join("\n\n");
  fakeProvider.enqueue(
    "About **zebrafish**: see the [guide](https://example.com/zebrafish-guide) and `zebrafish.init()`.",
    "Short title",
    lines,
  );
  await page.goto(hermes.launchUrl);
  await sendMessage(page, "Tell me about fish");
  await expect(replies(page).first()).toContainText("About zebrafish");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Short title");
  await sendMessage(page, "Now eighty lines");
  await expect(replies(page).last()).toContainText("line80", { timeout: 15_000 });
  // Another chat is open when searching.
  await page.getByRole("button", { name: "New chat", exact: true }).click();

  await page.getByRole("searchbox", { name: "Search chats" }).fill("zebrafish");
  const hits = page.getByRole("navigation", { name: "Search results" });
  const hit = hits.getByRole("listitem").first();
  await expect(hit.locator("mark").first()).toHaveText("zebrafish");
  await expect(hit).not.toContainText("**");
  await expect(hit).not.toContainText("https://");
  await expect(hit).not.toContainText("`");

  await hit.getByRole("button").first().click();
  const matched = replies(page).first();
  await expect(matched).toHaveAttribute("data-focused", "true");
  await expect(matched).toBeInViewport();
  await expect(userMessages(page)).toHaveCount(2);
});
