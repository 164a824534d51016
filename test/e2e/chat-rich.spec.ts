/** Replies with math (KaTeX), a Mermaid diagram and footnotes render as such. */
import { expect, test } from "./fixtures/app-test.js";
import { replies, sendMessage, setUpChat } from "./fixtures/chat-ui.js";

const reply = [
  "Energy: $E = mc^2$, and in full:",
  "",
  "$$",
  "\\int_0^1 x^2 \\, dx = \\frac{1}{3}",
  "$$",
  "",
  "```mermaid",
  "graph TD",
  "  A[Start] --> B[Finish]",
  "```",
  "",
  "A claim that needs a source.[^1]",
  "",
  "[^1]: The source, at the bottom.",
].join("\n");

test("math, Mermaid and footnotes are rendered", async ({ page, hermes, fakeProvider }) => {
  await setUpChat(hermes, fakeProvider);
  fakeProvider.enqueue(reply);
  await page.goto(hermes.launchUrl);
  await sendMessage(page, "Show me");
  const answer = replies(page).last();
  await expect(answer).toHaveAttribute("data-status", "complete");

  await expect(answer.locator(".katex").first()).toBeVisible();
  await expect(answer.locator(".katex-display")).toHaveCount(1);
  await expect(answer).not.toContainText("$$");
  const diagram = answer.getByRole("img", { name: "Diagram" });
  await expect(diagram.locator("svg")).toBeVisible({ timeout: 15_000 });
  await expect(diagram).toContainText("Start");
  await expect(answer.locator("[data-footnotes]")).toContainText("The source, at the bottom.");
  await expect(answer.locator('sup a[href*="fn-1"]')).toHaveText("1");
});
