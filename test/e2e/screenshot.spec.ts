/**
 * The README's screenshot: Settings → Providers with a provider (key set, models listed) and a main
 * model, at 1280x800, saved to docs/screenshot.png.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { startFakeProvider, type FakeProvider } from "../fixtures/fake-provider.js";
import { expect, test } from "./fixtures/app-test.js";
import { openSettings, providerRow } from "./fixtures/app-ui.js";
import { repoRoot } from "./fixtures/web-host-process.js";

const screenshotPath = join(repoRoot, "docs", "screenshot.png");

test.use({ viewport: { width: 1280, height: 800 }, colorScheme: "light" });

/**
 * Fixed inputs keep the picture byte-stable from run to run, so the README image only changes
 * when the UI does: llama.cpp's usual port when it is free, and a constant fake key.
 */
const screenshotModels = ["qwen3-8b-instruct", "llama-3.1-8b-instruct", "mistral-small-24b"];
const screenshotKey = "sk-test-0000000000000000000000000000";

async function fakeOnPreferredPort(): Promise<FakeProvider> {
  try {
    return await startFakeProvider({ port: 8080, models: screenshotModels });
  } catch {
    return await startFakeProvider({ models: screenshotModels });
  }
}

test("Settings → Providers is captured for the README", async ({ page, hermes }) => {
  const fakeProvider = await fakeOnPreferredPort();
  try {
    const rpc = await hermes.rpc();
    const local = { id: "local-llm", name: "Local llama.cpp", base_url: fakeProvider.baseURL };
    await rpc.call("providers.save", { ...local, apiKey: screenshotKey });
    await rpc.call("providers.save", {
      id: "openrouter",
      name: "OpenRouter",
      base_url: "https://openrouter.ai/api/v1",
      key_env: null,
    });
    await rpc.call("model.set", { scope: "main", provider: local.id, model: "qwen3-8b-instruct" });

    await page.goto(hermes.launchUrl);
    await openSettings(page, "Providers");
    const row = providerRow(page, local.name);
    await expect(row).toContainText(`Key set ••••${screenshotKey.slice(-4)}`);
    await row.getByRole("button", { name: "Test connection" }).click();
    const models = row.getByRole("list", { name: `Models of ${local.name}` }).getByRole("listitem");
    await expect(models).toHaveCount(screenshotModels.length);

    // No hover or focus ring left over from the click.
    await page.mouse.move(1279, 799);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.screenshot({ path: screenshotPath, animations: "disabled", caret: "hide" });
  } finally {
    await fakeProvider.close();
  }

  // A PNG of the README's size: signature, then the IHDR's width and height.
  const png = await readFile(screenshotPath);
  expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1280, 800]);
});
