/**
 * The background review (Settings → Chat → Memory review): set it to every 2 turns in the UI, chat
 * twice, see the proposal card in the transcript, add it to Memory, and find it in Settings → Memory.
 */
import { expect, test } from "./fixtures/app-test.js";
import { chatList, replies, sendMessage, setUpChat } from "./fixtures/chat-ui.js";

test("a Memory proposal appears after N turns and Add to Memory appends it to the note", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  await setUpChat(hermes, fakeProvider);
  await page.goto(hermes.launchUrl);
  const main = page.getByRole("navigation", { name: "Main" });
  const settingsNav = page.getByRole("navigation", { name: "Settings" });
  await main.getByRole("button", { name: "Settings" }).click();
  await settingsNav.getByRole("button", { name: "Chat", exact: true }).click();
  const interval = page.getByRole("textbox", { name: "Review every" });
  await expect(interval).toHaveValue("10");
  await interval.fill("two");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("alert")).toContainText("whole number of turns");
  await interval.fill("2");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved: every 2 turns" })).toBeVisible();
  expect(await hermes.readConfig()).toContain("nudge_interval: 2");

  await main.getByRole("button", { name: "Chat" }).click();
  fakeProvider.enqueue("Nice to meet you, Ada.");
  await sendMessage(page, "Hi, I am Ada and I write Rust.");
  await expect(replies(page).first()).toContainText("Nice to meet you");
  // The first exchange's title request has gone out before the second turn's replies are queued.
  await expect(chatList(page).getByRole("button").first()).not.toContainText("New chat");
  fakeProvider.enqueue("Rust it is.", { kind: "json", value: { additions: ["Name: Ada", "Writes Rust"] } });
  await sendMessage(page, "Remember that please.");
  await expect(replies(page).nth(1)).toContainText("Rust it is.");

  const proposal = page.getByRole("region", { name: "Memory proposal" });
  await expect(proposal).toContainText("Add to Memory?");
  await expect(proposal.getByRole("listitem")).toHaveText(["Name: Ada", "Writes Rust"]);
  await proposal.getByRole("button", { name: "Add to Memory" }).click();
  await expect(proposal).toContainText("Added to Memory");
  await expect(proposal.getByRole("button")).toHaveCount(0);

  await main.getByRole("button", { name: "Settings" }).click();
  await settingsNav.getByRole("button", { name: "Memory", exact: true }).click();
  await expect(page.getByRole("textbox", { name: "Memory", exact: true })).toHaveValue(
    "- Name: Ada\n- Writes Rust",
  );
});
