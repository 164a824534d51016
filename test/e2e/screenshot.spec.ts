/**
 * The README's screenshots at 1280x800: the chat with a streamed reply holding code
 * (docs/screenshot.png), and Settings → Providers with a provider (key set, models listed) and a
 * main model (docs/screenshot-providers.png).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { startFakeProvider, type FakeProvider } from "../fixtures/fake-provider.js";
import { expect, test } from "./fixtures/app-test.js";
import { openSettings, providerRow } from "./fixtures/app-ui.js";
import { repoRoot } from "./fixtures/web-host-process.js";

const screenshotPath = join(repoRoot, "docs", "screenshot-providers.png");
const chatScreenshotPath = join(repoRoot, "docs", "screenshot.png");

const chatReply = [
  "Here is a small, typed debounce:",
  "",
  "```ts",
  "export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number) {",
  "  let timer: ReturnType<typeof setTimeout> | undefined;",
  "  return (...args: A) => {",
  "    clearTimeout(timer);",
  "    timer = setTimeout(() => fn(...args), ms);",
  "  };",
  "}",
  "```",
  "",
  "Each call **restarts** the timer, so `fn` runs once the calls stop for `ms` milliseconds.",
].join("\n");

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

  await expectReadmePng(screenshotPath);
});

test("the chat with a streamed reply holding code is captured for the README", async ({ page, hermes }) => {
  const fakeProvider = await fakeOnPreferredPort();
  try {
    const rpc = await hermes.rpc();
    const local = { id: "local-llm", name: "Local llama.cpp", base_url: fakeProvider.baseURL };
    await rpc.call("providers.save", { ...local, apiKey: screenshotKey });
    await rpc.call("model.set", { scope: "main", provider: local.id, model: "qwen3-8b-instruct" });
    fakeProvider.enqueue(
      { kind: "text", content: chatReply, tokensPerSecond: 200 },
      "Debounce in TypeScript",
    );

    await page.goto(hermes.launchUrl);
    const box = page.getByRole("combobox", { name: "Message", exact: true });
    await box.fill("Write a debounce helper in TypeScript");
    await box.press("Enter");
    const reply = page.getByRole("article", { name: "Reply", exact: true }).last();
    await expect(reply).toHaveAttribute("data-status", "complete", { timeout: 15_000 });
    await expect(reply.locator("pre code")).toContainText("clearTimeout(timer)");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Debounce in TypeScript");

    await page.mouse.move(1279, 799);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.screenshot({ path: chatScreenshotPath, animations: "disabled", caret: "hide" });
  } finally {
    await fakeProvider.close();
  }
  await expectReadmePng(chatScreenshotPath);
});

/** A PNG of the README's size: signature, then the IHDR's width and height. */
async function expectReadmePng(path: string): Promise<void> {
  const png = await readFile(path);
  expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1280, 800]);
}
