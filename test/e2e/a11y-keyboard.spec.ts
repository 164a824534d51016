/**
 * The mission flows with the keyboard alone (no clicks, no fills: key presses only): pin an
 * auxiliary slot (Change → provider → model → Apply), Follow its base, Reset all to main; Grant and
 * Revoke on the consent screen and the Plugins page; open a plugin page and use it (Charts: paste a
 * table, Suggest chart). Where a control that had the focus goes away, or a dialog closes, the
 * focus lands where the person was, never on the page's body.
 */
import type { Locator, Page } from "@playwright/test";
import { expect, test, uniqueSuffix } from "./fixtures/app-test.js";

const isFocused = (locator: Locator) =>
  locator.evaluate((element) => element === element.ownerDocument.activeElement && document.hasFocus());

/** Presses Tab (or Shift+Tab) until `target` has the focus. */
async function tabTo(page: Page, target: Locator, { back = false, limit = 80 } = {}): Promise<void> {
  await expect(target).toBeVisible();
  for (let presses = 0; presses < limit; presses++) {
    if (await isFocused(target)) return;
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
  }
  throw new Error(`${String(target)} took no focus within ${limit} presses of ${back ? "Shift+Tab" : "Tab"}`);
}

async function pressOn(page: Page, target: Locator, key = "Enter"): Promise<void> {
  await tabTo(page, target);
  await page.keyboard.press(key);
}

const settingsNav = (page: Page, name: string) =>
  page.getByRole("navigation", { name: "Settings" }).getByRole("button", { name, exact: true });
const slotRow = (page: Page, task: string) => page.locator(`[data-task="${task}"]`);
const routeOf = (row: Locator) => row.getByTestId("aux-route");
const expectFocused = (locator: Locator) => expect.poll(() => isFocused(locator)).toBe(true);

test("auxiliary slots with the keyboard alone: pin, Follow base, Reset all to main", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  const suffix = uniqueSuffix();
  const main = { id: `main-${suffix}`, name: `Main ${suffix}`, base_url: fakeProvider.baseURL };
  const other = { id: `other-${suffix}`, name: `Other ${suffix}`, base_url: fakeProvider.baseURL };
  const cloud = { id: `cloud-${suffix}`, name: `Cloud ${suffix}`, base_url: "https://api.cloud.example/v1" };
  fakeProvider.setModels(["fake/chat-small", "fake/sorter"]);
  const rpc = await hermes.rpc();
  for (const provider of [main, other, cloud]) await rpc.call("providers.save", provider);
  await rpc.call("model.set", { scope: "main", provider: main.id, model: "fake/chat-small" });
  await rpc.call("plugins.setEnabled", { id: "classifier", enabled: true });
  // Follow Compression is offered only with llm.task_override (docs/contract.md §6.4).
  await rpc.call("settings.set", {
    key: "plugins.entries.classifier",
    value: { llm: { allow_task_override: true } },
  });

  await page.goto(hermes.launchUrl);
  await page.keyboard.press("Control+Comma");
  await pressOn(page, settingsNav(page, "Models"));
  // The tab list: Tab reaches the selected tab, the arrows move along it.
  await tabTo(page, page.getByRole("tab", { name: "Main", exact: true }));
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("heading", { name: "Auxiliary models", exact: true })).toBeVisible();

  // Pin: Change → provider → model → Apply; the focus goes back to Change.
  const row = slotRow(page, "classifier");
  const change = row.getByRole("button", { name: "Change", exact: true });
  await pressOn(page, change);
  const provider = row.getByLabel("Provider", { exact: true });
  await expectFocused(provider);
  await page.keyboard.type(other.name);
  await expect(provider.locator("option:checked")).toHaveText(other.name);
  const model = row.getByLabel("Model", { exact: true });
  await expect(model).toBeEnabled();
  await page.keyboard.press("Tab");
  await expectFocused(model);
  await page.keyboard.type("fake/sorter");
  await expect(model).toHaveValue("fake/sorter");
  await pressOn(page, row.getByRole("button", { name: "Apply", exact: true }));
  await expect(routeOf(row)).toHaveText(`${other.id} · fake/sorter`);
  await expectFocused(change);

  // Follow base: the button goes away with the pin; its focus goes to Change.
  await pressOn(page, row.getByRole("button", { name: "Follow Compression", exact: true }));
  await expect(routeOf(row)).toHaveText("auto · use main model");
  await expectFocused(change);

  // Reset all to main from the stale banner: the banner goes; the focus goes to the header's Reset all.
  await rpc.call("model.set", { scope: "auxiliary", task: "vision", provider: cloud.id, model: "cloud/vl" });
  const banner = page.getByTestId("aux-stale-banner");
  await expect(banner).toBeVisible();
  await tabTo(page, banner.getByRole("button", { name: "Reset all to main", exact: true }), { back: true });
  await page.keyboard.press("Enter");
  await expect(banner).toHaveCount(0);
  await expect(routeOf(slotRow(page, "vision"))).toHaveText("auto · use main model");
  await expectFocused(page.getByRole("button", { name: "Reset all to main", exact: true }));
});

test("consent, revoke and a plugin page with the keyboard alone; dialogs give the focus back", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  const suffix = uniqueSuffix();
  const rpc = await hermes.rpc();
  await rpc.call("providers.save", {
    id: `kb-${suffix}`,
    name: `Kb ${suffix}`,
    base_url: fakeProvider.baseURL,
  });
  await rpc.call("model.set", { scope: "main", provider: `kb-${suffix}`, model: "fake/chat-small" });
  await rpc.call("plugins.setEnabled", { id: "chart-writer", enabled: true });
  await page.goto(hermes.launchUrl);

  // The shortcuts sheet and Add provider give the focus back to where it was.
  const composer = page.getByRole("combobox", { name: "Message", exact: true });
  await expectFocused(composer);
  const newChat = page.getByRole("button", { name: "New chat", exact: true }).first();
  await tabTo(page, newChat, { back: true });
  await page.keyboard.press("?");
  const sheet = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(sheet).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(sheet).toBeHidden();
  await expectFocused(newChat);

  await page.keyboard.press("Control+Comma");
  const addProvider = page.getByRole("button", { name: "Add provider", exact: true }).first();
  await pressOn(page, addProvider);
  await expect(page.getByRole("dialog", { name: "Add provider" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "Add provider" })).toBeHidden();
  await expectFocused(addProvider);

  // Enabling next-prompt opens the consent screen, Decline first; Grant; the focus goes back to the switch.
  await pressOn(page, settingsNav(page, "Plugins"));
  const plugin = page.locator('[data-plugin="next-prompt"]');
  const enable = plugin.getByRole("switch", { name: "Enable next-prompt" });
  await pressOn(page, enable, "Space");
  const consent = page.getByRole("dialog", { name: "Plugin consent" });
  await expect(consent).toBeVisible();
  await expectFocused(consent.getByRole("button", { name: "Decline" }));
  await page.keyboard.press("Tab");
  await expectFocused(consent.getByRole("button", { name: "Grant" }));
  await page.keyboard.press("Enter");
  await expect(consent).toHaveCount(0);
  const capability = plugin.locator('[data-capability="llm.side_question"]');
  await expect(capability).toContainText("Granted");
  await expectFocused(enable);

  // Revoke on the Plugins page; its focus goes to the capability's Grant….
  await pressOn(page, capability.getByRole("button", { name: "Revoke Side questions from next-prompt" }));
  await expect(capability).toContainText("Not granted");
  const grantAgain = capability.getByRole("button", { name: "Grant Side questions for next-prompt" });
  await expectFocused(grantAgain);

  // Grant… opens the consent screen again; Escape declines; the focus goes to the plugin's switch.
  await page.keyboard.press("Enter");
  await expect(consent).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(consent).toHaveCount(0);
  await expect(capability).toContainText("Not granted");
  await expectFocused(enable);

  // The Charts page: into its frame, a table typed in, Suggest chart.
  fakeProvider.enqueue({
    kind: "json",
    value: { kind: "bar", title: "Sales by month", x: "month", y: ["sales"] },
  });
  await pressOn(
    page,
    page.getByRole("navigation", { name: "Plugin pages" }).getByRole("button", { name: "Charts" }),
  );
  await expect(page.getByRole("heading", { level: 1, name: "Charts" })).toBeVisible();
  const frame = page.frameLocator('iframe[title="chart-writer: Charts"]');
  const table = frame.getByLabel("Table (CSV or Markdown)");
  await tabTo(page, table);
  await page.keyboard.type("month,sales\nJan,120\nFeb,98\nMar,143");
  await pressOn(page, frame.getByRole("button", { name: "Suggest chart" }));
  await expect(frame.getByRole("img", { name: "bar chart: Sales by month" })).toBeVisible();
});
