/**
 * Settings → Plugins against the real web host: the bundled plugins listed disabled by default,
 * `tldr` enabled with its toggle (no restart), a broken user plugin found by Rescan and shown
 * failed with its reason while the others keep working, and `/tldr` run in a chat answering with
 * the fake provider's reply.
 */
import { join } from "node:path";
import type { Locator, Page } from "@playwright/test";
import { parse } from "yaml";
import { expect, test, uniqueSuffix, writeUserPlugin } from "./fixtures/app-test.js";
import { openSettings } from "./fixtures/app-ui.js";

// The plugin host runs at the lowest OS priority (nice 19): beside Chromium and other test
// workers on a loaded 2-core runner, a plugin's start can take well past the default 10 s.
const PLUGIN_START_MS = 30_000;

const bundled = ["tldr", "paste-to-tasks", "error-explainer", "classifier"] as const;

const pluginRow = (page: Page, id: string): Locator => page.locator(`[data-plugin="${id}"]`);
const statusOf = (row: Locator): Locator => row.locator("[data-status]");
const toggleOf = (row: Locator, name: string): Locator => row.getByRole("switch", { name: `Enable ${name}` });

/** A user plugin whose `register` throws: it must fail alone. */
async function writeBrokenPlugin(home: string): Promise<void> {
  await writeUserPlugin(home, "broken", {
    "plugin.yaml":
      "name: broken\nversion: 0.0.1\ndescription: Throws in register, on purpose.\nmain: index.js\n",
    "index.js":
      'export function register() {\n  throw new Error("broken on purpose: the e2e test asked for it");\n}\n',
  });
}

test("bundled plugins are listed, disabled by default", async ({ page, hermes }) => {
  await page.goto(hermes.launchUrl);
  await openSettings(page, "Plugins");
  for (const id of bundled) {
    const row = pluginRow(page, id);
    await expect(row).toBeVisible();
    await expect(row).toContainText("Bundled");
    await expect(statusOf(row)).toHaveText("Disabled");
    await expect(toggleOf(row, id)).toHaveAttribute("aria-checked", "false");
  }
  // Web mode cannot open a file manager: the page shows the folder to copy instead.
  await expect(page.getByRole("button", { name: "Open plugins folder" })).toHaveCount(0);
  await expect(page.getByRole("group", { name: "Plugins folder" })).toContainText(
    join(hermes.home, "plugins"),
  );
});

test("enabling tldr loads it at once; a broken user plugin fails alone", async ({ page, hermes }) => {
  await page.goto(hermes.launchUrl);
  await openSettings(page, "Plugins");

  const tldr = pluginRow(page, "tldr");
  await toggleOf(tldr, "tldr").click();
  await expect(toggleOf(tldr, "tldr")).toHaveAttribute("aria-checked", "true");
  await expect(statusOf(tldr)).toHaveText("Loaded", { timeout: PLUGIN_START_MS });
  await expect(tldr.getByRole("list", { name: "Commands of tldr" })).toContainText("/tldr <text>");
  const config = parse((await hermes.readConfig()) ?? "") as { plugins?: { enabled?: unknown } };
  expect(config.plugins?.enabled).toEqual(["tldr"]);

  await writeBrokenPlugin(hermes.home);
  await page.getByRole("button", { name: "Rescan", exact: true }).click();
  const broken = pluginRow(page, "broken");
  await expect(broken).toContainText("User");
  await expect(statusOf(broken)).toHaveText("Disabled");
  await toggleOf(broken, "broken").click();
  await expect(statusOf(broken)).toHaveText("Failed");
  await expect(broken.getByRole("alert")).toContainText("broken on purpose: the e2e test asked for it");

  // The failure touched nothing else.
  await expect(statusOf(tldr)).toHaveText("Loaded", { timeout: PLUGIN_START_MS });
  await expect(tldr.getByRole("alert")).toHaveCount(0);
  for (const id of ["paste-to-tasks", "error-explainer"])
    await expect(statusOf(pluginRow(page, id))).toHaveText("Disabled");
  const rpc = await hermes.rpc();
  const { commands } = await rpc.call<{ commands: { name: string }[] }>("plugins.commands");
  expect(commands.map((c) => c.name)).toContain("tldr");

  // Disabling takes effect at once too: the command leaves with the plugin.
  await toggleOf(tldr, "tldr").click();
  await expect(statusOf(tldr)).toHaveText("Disabled");
  await expect(tldr.getByRole("list", { name: "Commands of tldr" })).toHaveCount(0);
});

test("enable tldr in Settings → Plugins, then /tldr in a chat answers with the model's summary", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  const suffix = uniqueSuffix();
  const provider = {
    id: `e2e-plugins-${suffix}`,
    name: `E2E Plugins ${suffix}`,
    base_url: fakeProvider.baseURL,
  };
  const rpc = await hermes.rpc();
  await rpc.call("providers.save", provider);
  await rpc.call("model.set", { scope: "main", provider: provider.id, model: "fake/chat-small" });
  const summary = `TLDR-${suffix}: a fox jumps over a dog.`;
  fakeProvider.enqueue(summary);

  await page.goto(hermes.launchUrl);
  await openSettings(page, "Plugins");
  const tldr = pluginRow(page, "tldr");
  await toggleOf(tldr, "tldr").click();
  await expect(statusOf(tldr)).toHaveText("Loaded", { timeout: PLUGIN_START_MS });

  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("button", { name: "Chat", exact: true })
    .click();
  // The composer is a combobox (its slash-command autocomplete), labelled "Message".
  const composer = page.getByLabel("Message", { exact: true });
  await composer.fill("/tl");
  const menu = page.getByRole("listbox", { name: "Commands" });
  await expect(menu).toContainText("tldr");
  await expect(menu).toContainText("<text>");
  const text = `The quick brown fox ${suffix} jumps over the lazy dog, again and again.`;
  await composer.fill(`/tldr ${text}`);
  await composer.press("Enter");

  await expect(page.getByRole("log", { name: "Conversation" })).toContainText(summary);
  // The command reached the model through ctx.llm: the pasted text, on the user's main model.
  const request = fakeProvider.requests.find(
    (r) => r.rawBody.includes(suffix) && r.rawBody.includes("Summarise"),
  );
  expect(request, "tldr's request to the provider").toBeDefined();
  expect((request?.body as { model?: string }).model).toBe("fake/chat-small");
});
