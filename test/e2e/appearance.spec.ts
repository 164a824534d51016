/** Settings → Appearance → Theme: System, Light or Dark, kept as display.theme in config.yaml. */
import { expect, test } from "./fixtures/app-test.js";

test("the Theme choice applies at once and is kept in config.yaml", async ({ page, hermes }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto(hermes.launchUrl);
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Settings" }).click();
  await page
    .getByRole("navigation", { name: "Settings" })
    .getByRole("button", { name: "Appearance" })
    .click();
  const theme = page.getByRole("group", { name: "Theme" });
  await expect(theme.getByRole("radio", { name: "System", exact: true })).toBeChecked();
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await background();

  await theme.getByRole("radio", { name: "Dark", exact: true }).click();
  await expect.poll(background).not.toBe(light);
  await expect.poll(() => hermes.readConfig()).toMatch(/theme: dark/);

  // Kept across a reload, before any settings page is opened.
  await page.reload();
  await expect.poll(background).not.toBe(light);

  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Settings" }).click();
  await page
    .getByRole("navigation", { name: "Settings" })
    .getByRole("button", { name: "Appearance" })
    .click();
  await page.getByRole("group", { name: "Theme" }).getByRole("radio", { name: "Light", exact: true }).click();
  await page.emulateMedia({ colorScheme: "dark" });
  await expect.poll(background).toBe(light);
  await expect.poll(() => hermes.readConfig()).toMatch(/theme: light/);

  // System follows the OS: the same dark as the Dark choice when the OS is dark, light otherwise.
  await page.getByRole("group", { name: "Theme" }).getByRole("radio", { name: "Dark", exact: true }).click();
  await expect.poll(background).not.toBe(light);
  const dark = await background();
  await page
    .getByRole("group", { name: "Theme" })
    .getByRole("radio", { name: "System", exact: true })
    .click();
  await expect.poll(() => hermes.readConfig()).toMatch(/theme: system/);
  await expect.poll(background).toBe(dark);
  await page.emulateMedia({ colorScheme: "light" });
  await expect.poll(background).toBe(light);
});

test("an invalid theme in a script's settings.set names the key", async ({ hermes }) => {
  const rpc = await hermes.rpc();
  await expect(rpc.call("settings.set", { key: "display.theme", value: "purple" })).rejects.toThrow(
    /display\.theme/,
  );
});
