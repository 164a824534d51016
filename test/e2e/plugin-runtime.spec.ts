/**
 * Settings → Plugins shows a plugin's runtime (docs/contract.md §5.4) against the real web host: a user
 * plugin that crashes three times in a row is stopped, the page and host.info say so in plain
 * words, Restart brings it back; a daily token budget and heap cap saved from the row land in
 * config.yaml.
 */
import { parse } from "yaml";
import { expect, test, writeUserPlugin } from "./fixtures/app-test.js";
import { openSettings } from "./fixtures/app-ui.js";

/** Exits shortly after each of its first three starts (counted in its own state), then stays up. */
async function writeCrashingPlugin(home: string): Promise<void> {
  await writeUserPlugin(home, "wobbly", {
    "plugin.yaml":
      "name: wobbly\nversion: 0.0.1\ndescription: Crashes on its first three starts.\nmain: index.js\n",
    "index.js": `export function register(ctx) {
  const starts = (ctx.state.get("starts") ?? 0) + 1;
  ctx.state.set("starts", starts);
  ctx.registerCommand({ name: "wobbly", handler: () => "steady now" });
  if (starts <= 3) setTimeout(() => process.exit(1), 300);
}
`,
  });
}

test("a plugin that keeps crashing is stopped with the reason, and Restart brings it back", async ({
  page,
  hermes,
}) => {
  await writeCrashingPlugin(hermes.home);
  await page.goto(hermes.launchUrl);
  await openSettings(page, "Plugins");
  await page.getByRole("button", { name: "Rescan", exact: true }).click();
  const row = page.locator('[data-plugin="wobbly"]');
  await row.getByRole("switch", { name: "Enable wobbly" }).click();

  await expect(row.getByTestId("runtime-state")).toHaveText("Stopped after repeated crashes", {
    timeout: 20_000,
  });
  await expect(row.getByRole("alert")).toContainText("Stopped after crashing 3 times in 5 minutes.");
  await expect(row.locator("dl")).toContainText("exited with code 1");
  const rpc = await hermes.rpc();
  const info = await rpc.call<{ notices: { kind: string; message: string }[] }>("host.info");
  expect(info.notices.find((n) => n.kind === "plugin_stopped")?.message).toContain('"wobbly"');

  await row.getByRole("button", { name: "Restart", exact: true }).click();
  await expect(row.getByTestId("runtime-state")).toHaveText("Running");
  await expect(row.locator("[data-status]")).toHaveText("Loaded", { timeout: 30_000 }); // the plugin host runs at nice 19
  await expect(row.getByRole("alert")).toHaveCount(0);
});

test("a daily token budget and a heap cap saved from the row land in config.yaml", async ({
  page,
  hermes,
}) => {
  await page.goto(hermes.launchUrl);
  await openSettings(page, "Plugins");
  const row = page.locator('[data-plugin="tldr"]');
  await row.getByRole("switch", { name: "Enable tldr" }).click();
  await expect(row.getByTestId("runtime-state")).toHaveText("Running");

  await row.getByLabel("Daily token budget").fill("5000");
  await row.getByLabel("Heap cap (MB)").fill("8");
  await row.getByRole("button", { name: "Save limits" }).click();
  // The range is said in words, without a config path, and nothing is saved.
  await expect(row.getByRole("alert")).toHaveText(
    "The heap cap must be a whole number of MB from 16 to 4096.",
  );

  await row.getByLabel("Heap cap (MB)").fill("128");
  await row.getByRole("button", { name: "Save limits" }).click();
  await expect(row.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
  await expect(row.locator("dl")).toContainText("0 tokens of 5,000");
  await expect(row.locator("dl")).toContainText("of 128 MB");
  const config = parse((await hermes.readConfig()) ?? "") as {
    plugins?: { entries?: Record<string, { limits?: unknown }> };
  };
  expect(config.plugins?.entries?.tldr?.limits).toEqual({ daily_tokens: 5000, heap_mb: 128 });
});
