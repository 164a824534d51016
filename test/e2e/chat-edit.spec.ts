/**
 * Editing a sent message: Resend replaces the turns after it, the earlier version stays
 * reachable with Previous version / Next version (the position reads "1 / 2"), and a failed
 * reply can be sent again.
 */
import { expect, test } from "./fixtures/app-test.js";
import { replies, sendMessage, setUpChat, userMessages } from "./fixtures/chat-ui.js";

test("Edit message and Resend make a new version; the old one stays reachable", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  const { rpc } = await setUpChat(hermes, fakeProvider);
  fakeProvider.enqueue("Reply one.");
  await page.goto(hermes.launchUrl);
  await sendMessage(page, "First question");
  await expect(replies(page).first()).toContainText("Reply one.");
  const { sessions } = await rpc.call<{ sessions: { sessionId: string }[] }>("session.list");
  await rpc.call("session.rename", { sessionId: sessions[0]?.sessionId, title: "Edits" });
  fakeProvider.enqueue("Reply two.", "Reply to the edit.");
  await sendMessage(page, "Second question");
  await expect(replies(page)).toHaveCount(2);
  await expect(replies(page).last()).toContainText("Reply two.");

  const second = userMessages(page).last();
  await second.hover();
  await second.getByRole("button", { name: "Edit message", exact: true }).click();
  const editor = second.getByRole("textbox", { name: "Edited message" });
  await editor.fill("Second question, rephrased");
  await second.getByRole("button", { name: "Resend", exact: true }).click();

  await expect(userMessages(page)).toHaveCount(2);
  await expect(userMessages(page).last()).toContainText("Second question, rephrased");
  await expect(replies(page)).toHaveCount(2);
  await expect(replies(page).last()).toContainText("Reply to the edit.");
  const edited = userMessages(page).last();
  await expect(edited.getByText("2 / 2", { exact: true })).toBeVisible();

  await edited.getByRole("button", { name: "Previous version", exact: true }).click();
  await expect(userMessages(page).last()).toContainText("Second question");
  await expect(userMessages(page).last()).not.toContainText("rephrased");
  await expect(replies(page).last()).toContainText("Reply two.");
  await expect(userMessages(page).last().getByText("1 / 2", { exact: true })).toBeVisible();
  await userMessages(page).last().getByRole("button", { name: "Next version", exact: true }).click();
  await expect(replies(page).last()).toContainText("Reply to the edit.");

  // The model read the edited version only.
  const last = fakeProvider.requests
    .map((r) => r.body as { stream?: boolean; messages?: { content: string }[] } | undefined)
    .filter((b) => b?.stream)
    .at(-1);
  expect(JSON.stringify(last?.messages)).not.toContain("Reply two.");
});

test("a failed reply can be sent again", async ({ page, hermes, fakeProvider }) => {
  await setUpChat(hermes, fakeProvider);
  fakeProvider.fault({ kind: "http_error", status: 400, message: "bad request today" });
  await page.goto(hermes.launchUrl);
  await sendMessage(page, "Try me");
  await expect(page.getByText(/bad request today/)).toBeVisible();
  fakeProvider.enqueue("Worked now.");
  await page
    .getByRole("button", { name: "Regenerate" })
    .or(page.getByRole("button", { name: "Resend" }))
    .first()
    .click();
  await expect(replies(page).last()).toContainText("Worked now.");
});
