/** Export chat (Markdown, JSON with usage) from the header, and Import chat from the sidebar. */
import { readFile } from "node:fs/promises";
import { expect, test } from "./fixtures/app-test.js";
import { chatList, replies, sendMessage, setUpChat, userMessages } from "./fixtures/chat-ui.js";

test("a chat exported as JSON comes back with Import chat; Markdown reads as the chat", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  await setUpChat(hermes, fakeProvider);
  fakeProvider.enqueue("Bring **boots**.", "Packing list");
  await page.goto(hermes.launchUrl);
  await sendMessage(page, "What should I pack?");
  await expect(replies(page).first()).toContainText("Bring boots.");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Packing list");

  const exportMenu = page.getByRole("button", { name: "Export chat", exact: true });
  await exportMenu.click();
  const markdownDownload = page.waitForEvent("download");
  await page.getByRole("menuitem", { name: "Markdown", exact: true }).click();
  const markdown = await readFile((await (await markdownDownload).path())!, "utf8");
  expect(markdown).toBe(
    "# Packing list\n\n## You\n\nWhat should I pack?\n\n## Assistant\n\nBring **boots**.\n",
  );

  await exportMenu.click();
  const jsonDownload = page.waitForEvent("download");
  await page.getByRole("menuitem", { name: "JSON", exact: true }).click();
  const file = await jsonDownload;
  expect(file.suggestedFilename()).toBe("Packing list.json");
  const json = await readFile((await file.path())!, "utf8");
  const doc = JSON.parse(json) as { usage: { category: string }[] };
  expect(doc.usage.map((r) => r.category).sort()).toEqual(["chat", "title_generation"]);

  await page.getByRole("button", { name: "New chat", exact: true }).click();
  await page.locator('input[type="file"][accept*="json"]').setInputFiles({
    name: "Packing list.json",
    mimeType: "application/json",
    buffer: Buffer.from(json),
  });
  await expect(chatList(page).getByRole("listitem")).toHaveCount(2);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Packing list");
  await expect(userMessages(page)).toHaveText(["What should I pack?"]);
  await expect(replies(page).first()).toContainText("Bring boots.");

  // A file that is not an export is refused with the reason.
  await page.locator('input[type="file"][accept*="json"]').setInputFiles({
    name: "notes.json",
    mimeType: "application/json",
    buffer: Buffer.from('{"hello": 1}'),
  });
  await expect(page.getByRole("alert").filter({ hasText: "Couldn't import notes.json" })).toContainText(
    "not a Hermes Desktop chat export",
  );
});
