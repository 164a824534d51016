/**
 * WCAG 2.2 AA on every screen and dialog, light and dark (axe-core, serious and critical findings):
 * the chat (empty, a streamed reply with code and math, an error reply), the sidebar's search, the
 * export menu and the shortcuts sheet; Settings and each of its pages and dialogs; the consent screen
 * and a plugin page (Charts).
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures/app-test.js";
import { expectAccessible } from "./fixtures/axe.js";
import { replies, sendMessage, setUpChat } from "./fixtures/chat-ui.js";

const REPLY_WITH_CODE_AND_MATH = [
  "Here is the sum in Python:",
  "",
  "```python",
  "def total(xs):",
  "    return sum(xs)",
  "```",
  "",
  "And in maths: $\\sum_{i=1}^{n} x_i$, or in full:",
  "",
  "$$",
  "\\int_0^1 x^2 \\, dx = \\frac{1}{3}",
  "$$",
  "",
  "See [the docs](https://example.com/docs).",
].join("\n");

// Each test scans several screens twice (light, dark); a scan takes a second or two on a busy machine.
test.describe.configure({ timeout: 180_000 });

async function openSettingsPage(page: Page, name: string): Promise<void> {
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Settings" }).click();
  await page.getByRole("navigation", { name: "Settings" }).getByRole("button", { name, exact: true }).click();
}

test("the chat, its search, export menu and shortcuts sheet", async ({ page, hermes, fakeProvider }) => {
  await setUpChat(hermes, fakeProvider);
  await page.goto(hermes.launchUrl);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("New chat");
  await expectAccessible(page, "empty chat");

  fakeProvider.enqueue(REPLY_WITH_CODE_AND_MATH);
  await sendMessage(page, "Sum a list");
  await expect(replies(page).last()).toHaveAttribute("data-status", "complete");
  await expect(replies(page).last().locator(".katex-display")).toHaveCount(1);
  fakeProvider.fault({ kind: "http_error", status: 400, message: "bad request today" });
  await sendMessage(page, "Again");
  await expect(replies(page).last()).toHaveAttribute("data-status", "error");
  await expectAccessible(page, "chat with a code and math reply and an error reply");

  await page.getByRole("searchbox", { name: "Search chats" }).fill("sum");
  await expect(
    page.getByRole("navigation", { name: "Search results" }).getByRole("listitem"),
  ).not.toHaveCount(0);
  await expectAccessible(page, "sidebar search results");
  await page.getByRole("searchbox", { name: "Search chats" }).fill("");

  await page.getByRole("button", { name: "Export chat", exact: true }).click();
  await expect(page.getByRole("menuitem", { name: "Markdown", exact: true })).toBeVisible();
  await expectAccessible(page, "export menu");
  await page.keyboard.press("Escape");
  // Not modal, yet closing it still gives the focus back to its button.
  await expect(page.getByRole("button", { name: "Export chat", exact: true })).toBeFocused();

  await page.getByRole("button", { name: /^Model for this chat: / }).click();
  await expect(page.getByRole("dialog", { name: "Model for this chat" })).toBeVisible();
  await expectAccessible(page, "Model for this chat dialog");
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "System prompt", exact: true }).click();
  await expect(page.getByRole("dialog", { name: "System prompt" })).toBeVisible();
  await expectAccessible(page, "System prompt dialog");
  await page.keyboard.press("Escape");

  await page.getByRole("heading", { level: 1 }).click();
  await page.keyboard.press("?");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
  await expectAccessible(page, "shortcuts sheet");
});

test("Settings: every page and dialog", async ({ page, hermes, fakeProvider }) => {
  await setUpChat(hermes, fakeProvider, { plugins: ["classifier"] });
  await page.goto(hermes.launchUrl);

  await openSettingsPage(page, "Providers");
  await expect(page.getByRole("heading", { name: "Providers", exact: true })).toBeVisible();
  await expectAccessible(page, "Providers");
  await page.getByRole("button", { name: "Add provider", exact: true }).first().click();
  await expect(page.getByRole("dialog", { name: "Add provider" })).toBeVisible();
  await expectAccessible(page, "Add provider dialog (presets)");
  const dialog = page.getByRole("dialog", { name: "Add provider" });
  await dialog.getByRole("button", { name: "OpenRouter", exact: true }).click();
  await expect(dialog.getByLabel("Base URL", { exact: true })).toBeVisible();
  await expectAccessible(page, "Add provider dialog (a preset picked, its form)");
  await page.keyboard.press("Escape");

  await openSettingsPage(page, "Models");
  await page.getByRole("tablist").getByRole("tab", { name: "Main", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Main model", exact: true })).toBeVisible();
  await expectAccessible(page, "Models: Main");
  await page.getByRole("tablist").getByRole("tab", { name: "Auxiliary", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Auxiliary models", exact: true })).toBeVisible();
  await page.locator('[data-task="classifier"]').getByRole("button", { name: "Change", exact: true }).click();
  await expect(
    page.locator('[data-task="classifier"]').getByLabel("Provider", { exact: true }),
  ).toBeFocused();
  await expectAccessible(page, "Models: Auxiliary with the Change editor open");

  for (const name of ["General", "Chat", "Memory", "Appearance", "Plugins"]) {
    await openSettingsPage(page, name);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectAccessible(page, `Settings: ${name}`);
  }
});

test("the consent screen and a plugin page", async ({ page, hermes, fakeProvider }) => {
  await setUpChat(hermes, fakeProvider, { plugins: ["chart-writer"] });
  fakeProvider.enqueue({
    kind: "json",
    value: { kind: "bar", title: "Sales by month", x: "month", y: ["sales"] },
  });
  await page.goto(hermes.launchUrl);

  await openSettingsPage(page, "Plugins");
  await page
    .locator('[data-plugin="next-prompt"]')
    .getByRole("switch", { name: "Enable next-prompt" })
    .click();
  await expect(page.getByRole("dialog", { name: "Plugin consent" })).toBeVisible();
  await expectAccessible(page, "consent screen");
  await page.getByRole("dialog", { name: "Plugin consent" }).getByRole("button", { name: "Decline" }).click();

  await page
    .getByRole("navigation", { name: "Plugin pages" })
    .getByRole("button", { name: "Charts" })
    .click();
  const frame = page.frameLocator('iframe[title="chart-writer: Charts"]');
  await frame.getByLabel("Table (CSV or Markdown)").fill("month,sales\nJan,120\nFeb,98\nMar,143");
  await frame.getByRole("button", { name: "Suggest chart" }).click();
  // The plugin's first answer waits on its worker's start in the plugin host at nice 19.
  await expect(frame.getByRole("img", { name: "bar chart: Sales by month" })).toBeVisible({
    timeout: 30_000,
  });
  await expectAccessible(page, "plugin page: Charts");
});
