/**
 * The consent screen and side questions end to end (docs/contract.md §7.2, §7.3) in Chromium against the real
 * web host: enabling the bundled `next-prompt` shows the consent screen at once; after Decline a
 * reply brings no chip (and no side question reaches the provider); after Grant the suggestion
 * shows as a chip above the message box and a click fills the box; after a revoke in Settings →
 * Plugins the chip stops.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures/app-test.js";
import { openSettings } from "./fixtures/app-ui.js";
import { composer, replies, sendMessage, setUpChat } from "./fixtures/chat-ui.js";

const SQ_TEXT =
  "Ask your agent a short question after each turn. It sees the whole session, including memory, and spends your main model's tokens.";

async function openChat(page: Page, title: string): Promise<void> {
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("button", { name: "Chat", exact: true })
    .click();
  await page
    .getByRole("navigation", { name: "Chats", exact: true })
    .getByText(title, { exact: true })
    .click();
  await expect(composer(page)).toBeEnabled();
}

const consentScreen = (page: Page) => page.getByRole("dialog", { name: "Plugin consent" });
const chip = (page: Page) => page.getByTestId("next-prompt");
const capabilityRow = (page: Page) =>
  page.locator('[data-plugin="next-prompt"] [data-capability="llm.side_question"]');

test("next-prompt: consent screen, Decline → no chip, Grant → chip, revoke → no chip", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  const { rpc } = await setUpChat(hermes, fakeProvider);
  // A titled chat: no title request races the side question for the scripted replies.
  await rpc.call("session.create", { title: "Week planning" });
  await page.goto(hermes.launchUrl);

  await openSettings(page, "Plugins");
  await page
    .locator('[data-plugin="next-prompt"]')
    .getByRole("switch", { name: "Enable next-prompt" })
    .click();
  const screen = consentScreen(page);
  await expect(screen).toBeVisible();
  await expect(screen).toContainText("next-prompt");
  await expect(screen).toContainText("v1.0.0");
  await expect(screen.locator('[data-capability="llm.side_question"]')).toContainText(SQ_TEXT);
  await expect(screen).toContainText("Granting trusts the plugin's author");
  await expect(screen.getByRole("button", { name: "Decline" })).toBeFocused();
  await screen.getByRole("button", { name: "Decline" }).click();
  await expect(screen).toHaveCount(0);
  await expect(capabilityRow(page)).toContainText("Not granted");

  // Declined: the reply comes, no side question is asked, no chip.
  await openChat(page, "Week planning");
  fakeProvider.enqueue("Here is your week.");
  await sendMessage(page, "Plan my week");
  await expect(replies(page).last()).toHaveAttribute("data-status", "complete");
  await page.waitForTimeout(500);
  expect(fakeProvider.requests.filter((r) => r.path.endsWith("/chat/completions"))).toHaveLength(1);
  await expect(chip(page)).toHaveCount(0);

  // Granted from Settings → Plugins (the consent screen again, for the declined capability).
  await openSettings(page, "Plugins");
  await capabilityRow(page).getByRole("button", { name: "Grant Side questions for next-prompt" }).click();
  await consentScreen(page).getByRole("button", { name: "Grant" }).click();
  await expect(consentScreen(page)).toHaveCount(0);
  await expect(capabilityRow(page)).toContainText("Granted");

  await openChat(page, "Week planning");
  fakeProvider.enqueue("Monday: gym. Tuesday: dentist.", '"Move the gym to Wednesday"');
  await sendMessage(page, "And the gym?");
  await expect(chip(page)).toContainText("Move the gym to Wednesday");
  await chip(page)
    .getByRole("button", { name: /Move the gym to Wednesday/ })
    .click();
  await expect(composer(page)).toHaveValue("Move the gym to Wednesday");
  await expect(chip(page)).toHaveCount(0);
  await composer(page).fill("");

  // Revoked: the next reply brings no chip.
  await openSettings(page, "Plugins");
  await capabilityRow(page).getByRole("button", { name: "Revoke Side questions from next-prompt" }).click();
  await expect(capabilityRow(page)).toContainText("Not granted");
  await openChat(page, "Week planning");
  const before = fakeProvider.requests.length;
  fakeProvider.enqueue("Noted.");
  await sendMessage(page, "Thanks");
  await expect(replies(page).last()).toContainText("Noted.");
  await expect(replies(page).last()).toHaveAttribute("data-status", "complete");
  await page.waitForTimeout(500);
  expect(fakeProvider.requests.length - before).toBe(1);
  await expect(chip(page)).toHaveCount(0);
});
