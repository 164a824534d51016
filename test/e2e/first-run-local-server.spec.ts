/**
 * First run with Ollama running (docs/contract.md §6.1.1): the welcome screen finds it (web mode
 * started with OLLAMA_HOST pointing at a fake Ollama whose /v1 is the fake provider), one click
 * adds it without a key, and the chat that follows gets its reply.
 */
import { startFakeOllama, startHtmlServer, type FakeLocalServer } from "../fixtures/fake-local-server.js";
import { expect, test as base } from "./fixtures/app-test.js";
import { openSettings } from "./fixtures/app-ui.js";
import { replies, sendMessage } from "./fixtures/chat-ui.js";

const test = base.extend<{ fakeOllama: FakeLocalServer; notAModelServer: FakeLocalServer }>({
  fakeOllama: async ({ fakeProvider }, use) => {
    fakeProvider.setModels(["llama3.2:3b", "llava:7b"]);
    const ollama = await startFakeOllama({
      models: [
        { name: "llama3.2:3b", contextLength: 131072, capabilities: ["completion", "tools"] },
        { name: "llava:7b", contextLength: 32768, capabilities: ["completion", "vision"] },
      ],
      upstream: fakeProvider,
    });
    await use(ollama);
    await ollama.close();
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern.
  notAModelServer: async ({}, use) => {
    const html = await startHtmlServer();
    await use(html);
    await html.close();
  },
  hostEnv: async ({ fakeOllama, notAModelServer }, use) => {
    await use({
      OLLAMA_HOST: `127.0.0.1:${fakeOllama.port}`,
      // llama-server's own variable moves where llama.cpp is looked for: here, a web page.
      LLAMA_ARG_PORT: String(notAModelServer.port),
      // A loaded test machine answers slower than a person's; the deadline is the bench's business.
      HERMES_DESKTOP_DISCOVERY_TIMEOUT_MS: "5000",
    });
  },
});

test("a person with Ollama running adds it in one click and chats with it", async ({
  page,
  hermes,
  fakeProvider,
  fakeOllama,
  notAModelServer,
}) => {
  await page.goto(hermes.launchUrl);
  await expect(page.getByRole("heading", { name: "Welcome to Hermes Desktop" })).toBeVisible();

  const found = page.getByRole("list", { name: "Local servers found" });
  const ollama = found.getByRole("listitem", { name: `Ollama at ${fakeOllama.origin}/v1` });
  await expect(ollama).toBeVisible();
  const models = ollama.getByRole("list", { name: "Models of Ollama" });
  await expect(models).toContainText("llama3.2:3b · 128k context");
  await expect(models).toContainText("llava:7b · 32k context · vision");
  // Something answers on llama.cpp's port, but it is a web page: shown as such, never offered.
  const html = found.getByRole("listitem", { name: `llama.cpp server at ${notAModelServer.origin}/v1` });
  await expect(html.getByText("Not a model server", { exact: true })).toBeVisible();
  await expect(html.getByRole("button")).toHaveCount(0);
  expect(await hermes.readConfig()).toBeNull();

  await ollama.getByRole("button", { name: "Add Ollama" }).click();

  fakeProvider.enqueue("Hello from the local model.");
  await sendMessage(page, "Hi there");
  await expect(replies(page).last()).toContainText("Hello from the local model.");
  const request = fakeProvider.lastRequest();
  expect(request?.path).toBe("/v1/chat/completions");
  expect((request?.body as { model?: string }).model).toBe("llama3.2:3b");
  // No key was asked for, and none was sent.
  expect(request?.headers["authorization"] ?? "").not.toMatch(/Bearer \S{8,}/);
  const config = await hermes.readConfig();
  expect(config).toContain(`base_url: ${fakeOllama.origin}/v1`);
  expect(config).toContain("provider: ollama");
});

test("Settings → Providers scans on demand and shows a server already added as added", async ({
  page,
  hermes,
  fakeOllama,
}) => {
  const rpc = await hermes.rpc();
  await rpc.call("providers.save", {
    id: "my-ollama",
    name: "My Ollama",
    base_url: `${fakeOllama.origin}/v1`,
  });
  await page.goto(hermes.launchUrl);
  await openSettings(page, "Providers");
  await page.getByRole("button", { name: "Scan for local servers" }).click();
  const row = page
    .getByRole("list", { name: "Local servers found" })
    .getByRole("listitem", { name: `My Ollama at ${fakeOllama.origin}/v1` });
  await expect(row.getByText("Added", { exact: true })).toBeVisible();
  await expect(row.getByRole("button", { name: /^Add/ })).toHaveCount(0);
});
