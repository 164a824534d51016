/**
 * Reduced motion and what a screen reader hears of a reply. With the OS asking for reduced motion
 * nothing animates (not the streaming caret, not a dialog) and "Jump to latest" jumps instead of
 * scrolling smoothly. The conversation is not a live region, so a streamed reply is not read out
 * token by token; one polite status says the reply finished, once per reply.
 */
import { expect, test } from "./fixtures/app-test.js";
import { replies, sendMessage, setUpChat } from "./fixtures/chat-ui.js";

const lines = (count: number, marker: string) =>
  Array.from({ length: count }, (_, i) => `${marker}${i + 1}`).join("\n\n");

const runningAnimations = () =>
  document.getAnimations().filter((animation) => animation.playState === "running").length;

test("with reduced motion nothing animates and Jump to latest does not scroll smoothly", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  // Every scrollTo the page makes, with the behaviour it asked for.
  await page.addInitScript(() => {
    const behaviours: string[] = [];
    (window as unknown as { scrollBehaviours: string[] }).scrollBehaviours = behaviours;
    const scrollTo = Element.prototype.scrollTo;
    Element.prototype.scrollTo = function (this: Element, ...args: unknown[]) {
      const options = args[0];
      behaviours.push(
        typeof options === "object" && options !== null
          ? String((options as ScrollToOptions).behavior)
          : "auto",
      );
      return (scrollTo as (...a: unknown[]) => void).apply(this, args);
    } as typeof Element.prototype.scrollTo;
  });
  await page.emulateMedia({ reducedMotion: "reduce" });
  await setUpChat(hermes, fakeProvider);
  fakeProvider.enqueue({
    kind: "text",
    content: lines(60, "line"),
    tokensPerSecond: 60,
    holdAfterChunks: 31,
  });
  await page.goto(hermes.launchUrl);

  await sendMessage(page, "Sixty lines please");
  const reply = replies(page).last();
  await expect(reply).toContainText("line20");
  await expect(reply).toHaveAttribute("data-status", "streaming");
  expect(await page.evaluate(runningAnimations)).toBe(0);

  fakeProvider.release();
  await expect(reply).toHaveAttribute("data-status", "complete", { timeout: 20_000 });
  const log = page.getByRole("log", { name: "Conversation" });
  expect(await log.evaluate((el) => getComputedStyle(el).scrollBehavior)).toBe("auto");
  await log.evaluate((el) => el.scrollTo({ top: 0 }));
  const jump = page.getByRole("button", { name: "Jump to latest", exact: true });
  await jump.click();
  await expect(reply.getByText("line60", { exact: true })).toBeInViewport();
  expect(
    await page.evaluate(() => (window as unknown as { scrollBehaviours: string[] }).scrollBehaviours),
  ).not.toContain("smooth");

  await page.getByRole("heading", { level: 1 }).click();
  await page.keyboard.press("?");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
  expect(await page.evaluate(runningAnimations)).toBe(0);
});

test("a streamed reply is not read token by token; its end is announced once", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  await setUpChat(hermes, fakeProvider);
  fakeProvider.enqueue({
    kind: "text",
    content: lines(30, "word"),
    tokensPerSecond: 60,
    holdAfterChunks: 10,
  });
  await page.goto(hermes.launchUrl);
  const announcement = page.getByTestId("reply-announcement");
  await expect(announcement).toHaveAttribute("role", "status");
  // Each time the announcement gets words, counted.
  await announcement.evaluate((element) => {
    const counter = window as unknown as { announcements: string[] };
    counter.announcements = [];
    new MutationObserver(() => {
      const text = element.textContent ?? "";
      if (text) counter.announcements.push(text);
    }).observe(element, { childList: true, characterData: true, subtree: true });
  });
  const announcements = () =>
    page.evaluate(() => (window as unknown as { announcements: string[] }).announcements);

  await sendMessage(page, "Thirty words please");
  const reply = replies(page).last();
  await expect(reply).toContainText("word3");
  await expect(reply).toHaveAttribute("data-status", "streaming");
  // The streaming text sits in no live region: every ancestor is silent.
  const liveAncestors = await reply.evaluate((element) => {
    const implicit: Record<string, string> = { log: "polite", status: "polite", alert: "assertive" };
    const live: string[] = [];
    for (let node: Element | null = element; node; node = node.parentElement) {
      const politeness = node.getAttribute("aria-live") ?? implicit[node.getAttribute("role") ?? ""] ?? "off";
      if (politeness !== "off") live.push(`${node.tagName.toLowerCase()}.${node.className} (${politeness})`);
    }
    return live;
  });
  expect(liveAncestors).toEqual([]);
  await expect(announcement).toHaveText("");

  fakeProvider.release();
  await expect(reply).toHaveAttribute("data-status", "complete", { timeout: 20_000 });
  await expect(announcement).toHaveText("Reply finished.");
  expect(await announcements()).toEqual(["Reply finished."]);

  // The next reply: one more, again only at its end (queued once the chat's title was asked for).
  const completions = () => fakeProvider.requests.filter((r) => r.path.endsWith("/chat/completions")).length;
  await expect.poll(completions).toBe(2);
  fakeProvider.enqueue({ kind: "text", content: lines(10, "more"), tokensPerSecond: 60, holdAfterChunks: 4 });
  await sendMessage(page, "Ten more");
  await expect(replies(page).last()).toContainText("more1");
  expect(await announcements()).toEqual(["Reply finished."]);
  fakeProvider.release();
  await expect(replies(page).last()).toHaveAttribute("data-status", "complete", { timeout: 20_000 });
  await expect.poll(announcements).toEqual(["Reply finished.", "Reply finished."]);
});
