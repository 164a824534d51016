/**
 * The desktop chat end to end: a reply streams in visibly, Stop (and Esc) keep the partial reply,
 * a message sent while a reply streams is queued and runs after it, and regenerate answers again.
 */
import { expect, test } from "./fixtures/app-test.js";
import {
  composer,
  numberedWords,
  replies,
  sendMessage,
  setUpChat,
  userMessages,
} from "./fixtures/chat-ui.js";

test("a reply streams in visibly and renders Markdown", async ({ page, hermes, fakeProvider }) => {
  await setUpChat(hermes, fakeProvider);
  const words = numberedWords(40, "tok");
  fakeProvider.enqueue({ kind: "text", content: `**Bold start** ${words}`, tokensPerSecond: 8 });
  await page.goto(hermes.launchUrl);

  await sendMessage(page, "Tell me a story");
  await expect(userMessages(page).last()).toContainText("Tell me a story");
  const reply = replies(page).last();
  // Mid-stream: some words are on screen, the last one is not yet, and Stop is offered.
  await expect(reply).toHaveAttribute("data-status", "streaming");
  await expect(reply).toContainText("tok5");
  await expect(reply).not.toContainText("tok40");
  await expect(page.getByRole("button", { name: "Stop", exact: true })).toBeVisible();

  await expect(reply).toHaveAttribute("data-status", "complete", { timeout: 15_000 });
  await expect(reply).toContainText("tok40");
  await expect(reply.locator("strong")).toHaveText("Bold start");
  await expect(page.getByRole("button", { name: "Stop", exact: true })).toHaveCount(0);
  await expect(composer(page)).toHaveValue("");
});

test("Stop and Esc end a reply and keep what came so far", async ({ page, hermes, fakeProvider }) => {
  await setUpChat(hermes, fakeProvider);
  fakeProvider.enqueue(
    { kind: "text", content: numberedWords(200, "a"), tokensPerSecond: 10 },
    { kind: "text", content: numberedWords(200, "b"), tokensPerSecond: 10 },
  );
  await page.goto(hermes.launchUrl);

  await sendMessage(page, "Count for me");
  const first = replies(page).first();
  await expect(first).toContainText("a3");
  await page.getByRole("button", { name: "Stop", exact: true }).click();
  await expect(first).toHaveAttribute("data-status", "stopped");
  await expect(first.getByText("Stopped", { exact: true })).toBeVisible();
  await expect(first).toContainText("a1");
  await expect(first).not.toContainText("a200");

  await sendMessage(page, "Count again");
  const second = replies(page).nth(1);
  await expect(second).toContainText("b3");
  await page.keyboard.press("Escape");
  await expect(second).toHaveAttribute("data-status", "stopped");
  await expect(second).not.toContainText("b200");

  // The partial reply is what the host kept, too.
  await page.reload();
  await page.getByRole("navigation", { name: "Chats" }).getByRole("button").first().click();
  await expect(replies(page).first()).toHaveAttribute("data-status", "stopped");
  await expect(replies(page).first()).toContainText("a1");
});

test("a message sent while a reply streams is queued and runs after it", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  await setUpChat(hermes, fakeProvider);
  // Only the first reply is scripted: the title request and the queued turn may reach the provider
  // in either order, and both get its default answer ("Echo: <last user text>").
  // It holds after "first3" until released, so the second message is surely sent mid-stream.
  fakeProvider.enqueue({ kind: "text", content: numberedWords(40, "first"), holdAfterChunks: 4 });
  await page.goto(hermes.launchUrl);

  await sendMessage(page, "First question");
  await expect(replies(page).first()).toContainText("first2");
  await sendMessage(page, "Second question");
  await expect(page.getByRole("status").filter({ hasText: "Queued:" })).toBeVisible();
  await expect(userMessages(page).last()).toContainText("Queued");
  fakeProvider.release();

  // The first reply finishes whole, then the queued message gets its own reply after it.
  await expect(replies(page)).toHaveCount(2, { timeout: 15_000 });
  await expect(replies(page).first()).toContainText("first40");
  await expect(replies(page).first()).toHaveAttribute("data-status", "complete");
  await expect(replies(page).last()).toContainText("Echo: Second question");
  const order = await page
    .locator('[data-role="user"], [data-role="assistant"]')
    .evaluateAll((nodes) =>
      nodes.map((n) => `${n.getAttribute("data-role")}:${n.textContent?.slice(0, 15)}`),
    );
  expect(order.map((entry) => entry.split(":")[0])).toEqual(["user", "assistant", "user", "assistant"]);
  expect(order[2]).toContain("Second question");
});

test("Regenerate answers the last message again", async ({ page, hermes, fakeProvider }) => {
  await setUpChat(hermes, fakeProvider);
  fakeProvider.enqueue("First try.");
  await page.goto(hermes.launchUrl);
  await sendMessage(page, "Say something");
  await expect(replies(page).last()).toContainText("First try.");
  // The title request follows the first exchange; let it take the provider's default answer first.
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("New chat");
  fakeProvider.enqueue("Second try.");
  await replies(page).last().hover();
  await page.getByRole("button", { name: "Regenerate" }).click();
  await expect(replies(page)).toHaveCount(1);
  await expect(replies(page).last()).toContainText("Second try.");
  // The first reply is kept as a version of the exchange: ‹ 2 / 2 ›, and back to the first.
  const asked = userMessages(page).last();
  await expect(asked.locator(".version-position")).toHaveText("2 / 2");
  await asked.getByRole("button", { name: "Previous version" }).click();
  await expect(replies(page).last()).toContainText("First try.");
  await expect(userMessages(page).last().locator(".version-position")).toHaveText("1 / 2");
});
