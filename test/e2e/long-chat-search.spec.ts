/**
 * README: opening a search hit brings the matching message into view, also in a long chat whose
 * rows above the hit are laid out only when they come near the view; and its focus ring is drawn
 * whole (not clipped by the row's paint containment).
 */
import { expect, test } from "./fixtures/app-test.js";
import { replies, setUpChat } from "./fixtures/chat-ui.js";

const longReply = (n: number, word = "") =>
  Array.from(
    { length: 40 },
    (_, line) => `Reply ${n}, line ${line + 1}${line === 20 ? ` ${word}` : ""}.`,
  ).join("\n\n");

test("a search hit far up a long chat is scrolled into view, its focus ring whole", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  const { rpc } = await setUpChat(hermes, fakeProvider);
  const messages = Array.from({ length: 30 }, (_, i) => [
    { role: "user", content: `Question ${i + 1}`, createdAt: 1_000 + i * 2, status: "complete" },
    {
      role: "assistant",
      content: longReply(i + 1, i === 11 ? "quokka" : ""),
      createdAt: 1_001 + i * 2,
      status: "complete",
    },
  ]).flat();
  await rpc.call("session.import", {
    content: JSON.stringify({
      format: "hermes-desktop-chat",
      version: 1,
      title: "Long chat",
      createdAt: 1_000,
      model: { provider: "x", model: "fake/chat-small" },
      systemPrompt: "",
      messages,
      usage: [],
    }),
  });
  await page.goto(hermes.launchUrl);
  await page.getByRole("searchbox", { name: "Search chats" }).fill("quokka");
  const hit = page.getByRole("navigation", { name: "Search results" }).getByRole("listitem").first();
  await expect(hit.locator("mark").first()).toHaveText("quokka");
  await hit.getByRole("button").first().click();

  const matched = replies(page).filter({ hasText: "quokka" });
  await expect(matched).toHaveAttribute("data-focused", "true");
  await expect(matched).toBeInViewport();
  // The ring (outline around the reply's text) lies inside the row's box, which content-visibility clips paint to.
  const reach = await matched.evaluate((row) => {
    const main = row.querySelector(".message-main")!;
    const style = getComputedStyle(main);
    const out = parseFloat(style.outlineOffset) + parseFloat(style.outlineWidth);
    const r = row.getBoundingClientRect();
    const m = main.getBoundingClientRect();
    return {
      width: style.outlineWidth,
      left: m.left - out - r.left,
      top: m.top - out - r.top,
      right: r.right - (m.right + out),
      bottom: r.bottom - (m.bottom + out),
    };
  });
  expect(reach.width).toBe("2px");
  for (const side of [reach.left, reach.top, reach.right, reach.bottom])
    expect(side).toBeGreaterThanOrEqual(0);
});
