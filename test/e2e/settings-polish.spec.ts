/**
 * Settings that keep what the person did: the keyboard focus ring shows on primary and secondary
 * buttons, Esc closes a dialog back onto the button that opened it, and unsaved Memory text
 * survives a visit to another page.
 */
import { expect, test } from "./fixtures/app-test.js";
import { openSettings } from "./fixtures/app-ui.js";
import { setUpChat } from "./fixtures/chat-ui.js";

const ringShown = (shadow: string) => /rgba\((91, 91, 214|123, 123, 240)/.test(shadow);

for (const colorScheme of ["light", "dark"] as const) {
  test(`primary and secondary buttons show the focus ring (${colorScheme})`, async ({
    page,
    hermes,
    fakeProvider,
  }) => {
    await page.emulateMedia({ colorScheme });
    await setUpChat(hermes, fakeProvider);
    await page.goto(hermes.launchUrl);
    await openSettings(page, "Providers");
    for (const name of ["Add provider", "Test connection"]) {
      const button = page.getByRole("button", { name, exact: true }).first();
      await button.focus();
      await page.keyboard.press("Shift"); // a keyboard interaction: focus-visible applies
      const shadow = await button.evaluate((el) =>
        el.matches(":focus-visible") ? getComputedStyle(el).boxShadow : "not focus-visible",
      );
      expect(ringShown(shadow), `${name}: ${shadow}`).toBe(true);
    }
  });
}

test("Esc closes the provider dialog and focus returns to Add provider", async ({ page, hermes }) => {
  await page.goto(hermes.launchUrl);
  await openSettings(page, "Providers");
  const add = page.getByRole("button", { name: "Add provider", exact: true });
  await add.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(add).toBeFocused();
});

test("unsaved Memory text survives leaving the page and can be saved later", async ({ page, hermes }) => {
  await page.goto(hermes.launchUrl);
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Settings" }).click();
  const settingsNav = page.getByRole("navigation", { name: "Settings" });
  await settingsNav.getByRole("button", { name: "Memory", exact: true }).click();
  const note = page.getByRole("textbox", { name: "Memory", exact: true });
  await note.fill("I write TypeScript and like short answers.");
  await expect(page.getByRole("status").filter({ hasText: "Unsaved changes" })).toBeVisible();

  await settingsNav.getByRole("button", { name: "Providers", exact: true }).click();
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Chat" }).click();
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Settings" }).click();
  await settingsNav.getByRole("button", { name: "Memory", exact: true }).click();
  await expect(note).toHaveValue("I write TypeScript and like short answers.");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  expect(await hermes.readConfig()).toContain("I write TypeScript and like short answers.");
});
