/**
 * The transcript follows output: a long streamed reply stays in view while the view is at the
 * bottom, scrolling up stops following and offers "Jump to latest", and a failure comes into view.
 */
import { expect, test } from "./fixtures/app-test.js";
import { replies, sendMessage, setUpChat } from "./fixtures/chat-ui.js";

const lines = (count: number, marker: string) =>
  Array.from({ length: count }, (_, i) => `${marker}${i + 1}`).join("\n\n");

test("a long streamed reply is followed; scrolling up offers Jump to latest", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  await setUpChat(hermes, fakeProvider);
  // Holds after line30 until released, so "mid-stream" is a state, not a race.
  fakeProvider.enqueue({
    kind: "text",
    content: lines(60, "line"),
    tokensPerSecond: 40,
    holdAfterChunks: 31,
  });
  await page.goto(hermes.launchUrl);

  await sendMessage(page, "Sixty lines please");
  const reply = replies(page).last();
  await expect(reply).toContainText("line20");
  // Mid-stream (the transcript is taller than the view by now), the view is at the newest text.
  const log = page.getByRole("log", { name: "Conversation" });
  const distanceFromEnd = () => log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
  expect(await log.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
  await expect.poll(distanceFromEnd).toBeLessThan(60);
  await expect(reply).toHaveAttribute("data-status", "streaming");
  fakeProvider.release();
  await expect(reply).toHaveAttribute("data-status", "complete", { timeout: 20_000 });
  await expect(reply.getByText("line60", { exact: true })).toBeInViewport();
  await expect(page.getByRole("button", { name: "Jump to latest" })).toHaveCount(0);

  // Scrolling up stops following and offers the way back.
  await log.evaluate((el) => el.scrollTo({ top: 0 }));
  const jump = page.getByRole("button", { name: "Jump to latest", exact: true });
  await expect(jump).toBeVisible();
  await expect(reply.getByText("line60", { exact: true })).not.toBeInViewport();
  await jump.click();
  await expect(reply.getByText("line60", { exact: true })).toBeInViewport();
  await expect(jump).toHaveCount(0);

  // A provider error after a long transcript comes into view.
  fakeProvider.fault({ kind: "http_error", status: 400, message: "model overloaded today" });
  await sendMessage(page, "Another one");
  await expect(page.getByText(/model overloaded today/)).toBeInViewport();
});

test("the view does not jump back down while the person reads higher up", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  await setUpChat(hermes, fakeProvider);
  fakeProvider.enqueue({ kind: "text", content: lines(80, "row"), tokensPerSecond: 25 });
  await page.goto(hermes.launchUrl);
  await sendMessage(page, "Eighty lines");
  const reply = replies(page).last();
  await expect(reply).toContainText("row25");
  const log = page.getByRole("log", { name: "Conversation" });
  await log.evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(reply).toContainText("row40");
  expect(await log.evaluate((el) => el.scrollTop)).toBeLessThan(50);
  await expect(page.getByRole("button", { name: "Jump to latest" })).toBeVisible();
});
