/**
 * The chat's sessions end to end: rename and delete (with undo) in the sidebar, search across
 * message text, and every session still there after the host restarts.
 */
import { expect, test, uniqueSuffix } from "./fixtures/app-test.js";
import { chatList, chatRow, replies, sendMessage, setUpChat } from "./fixtures/chat-ui.js";

test("a chat can be renamed and deleted, with undo", async ({ page, hermes, fakeProvider }) => {
  await setUpChat(hermes, fakeProvider);
  fakeProvider.enqueue("Hello there.", "Greeting chat");
  await page.goto(hermes.launchUrl);
  await sendMessage(page, "Hello");
  await expect(replies(page).last()).toContainText("Hello there.");
  // The first exchange gets a title from the title_generation slot.
  await expect(chatRow(page, "Greeting chat")).toBeVisible();

  const newTitle = `Renamed ${uniqueSuffix(4)}`;
  await chatRow(page, "Greeting chat").getByRole("button", { name: "Rename" }).click();
  const titleInput = chatList(page).getByRole("textbox", { name: "Chat title" });
  await titleInput.fill(newTitle);
  await titleInput.press("Enter");
  await expect(chatRow(page, newTitle)).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: newTitle })).toBeVisible();

  await chatRow(page, newTitle).getByRole("button", { name: "Delete" }).click();
  await expect(chatRow(page, newTitle)).toHaveCount(0);
  await page.getByRole("button", { name: "Undo", exact: true }).click();
  await expect(chatRow(page, newTitle)).toBeVisible();

  await chatRow(page, newTitle).getByRole("button", { name: "Delete" }).click();
  // Dismiss ends the undo window at once (left alone, it lasts 10 s).
  await page
    .getByRole("status")
    .filter({ hasText: "Deleted" })
    .getByRole("button", { name: "Dismiss" })
    .click();
  await expect(page.getByRole("status").filter({ hasText: "Deleted" })).toBeHidden();
  const rpc = await hermes.rpc();
  await expect
    .poll(async () => (await rpc.call<{ sessions: { title: string }[] }>("session.list", {})).sessions.length)
    .toBe(0);
  await page.reload();
  await expect(chatList(page).getByText("No chats yet")).toBeVisible();
});

test("search finds a chat by the text of its messages", async ({ page, hermes, fakeProvider }) => {
  await setUpChat(hermes, fakeProvider);
  const needle = `zebra${uniqueSuffix(5)}`;
  fakeProvider.enqueue(`Stripes are a ${needle} thing.`, "Animal chat", "Nothing special.", "Other chat");
  await page.goto(hermes.launchUrl);
  await sendMessage(page, "Tell me about stripes");
  await expect(replies(page).last()).toContainText(needle);
  await expect(chatRow(page, "Animal chat")).toBeVisible();
  await page.getByRole("button", { name: "New chat", exact: true }).click();
  await sendMessage(page, "Something else");
  await expect(replies(page).last()).toContainText("Nothing special.");
  await expect(chatRow(page, "Other chat")).toBeVisible();

  await page.getByRole("searchbox", { name: "Search chats" }).fill(needle);
  const results = page.getByRole("navigation", { name: "Search results" });
  await expect(results.getByRole("listitem")).toHaveCount(1);
  await expect(results.getByRole("listitem")).toContainText("Animal chat");
  await expect(results.locator("mark")).toHaveText(needle);
  await results.getByRole("button", { name: /Animal chat/ }).click();
  await expect(replies(page).last()).toContainText(needle);
});

test("sessions and their messages survive a host restart", async ({ page, hermes, fakeProvider }) => {
  await setUpChat(hermes, fakeProvider);
  fakeProvider.enqueue("Persisted reply.", "Durable chat");
  await page.goto(hermes.launchUrl);
  await sendMessage(page, "Remember this");
  await expect(replies(page).last()).toContainText("Persisted reply.");
  await expect(chatRow(page, "Durable chat")).toBeVisible();

  await hermes.restart();
  await page.goto(hermes.launchUrl);
  await chatRow(page, "Durable chat")
    .getByRole("button", { name: /Durable chat/ })
    .click();
  await expect(page.getByRole("article", { name: "Your message" })).toContainText("Remember this");
  await expect(replies(page).last()).toContainText("Persisted reply.");
});
