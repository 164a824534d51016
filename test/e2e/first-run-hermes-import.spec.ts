/**
 * First run with an existing Hermes set-up (docs/contract.md §3.1): the welcome screen offers the
 * import, the preview shows the key by its last 4 only, **Import** writes the settings and puts
 * the `.env` key in the keychain (never in config.yaml), the plugin grant Hermes had asks for
 * consent again, the chat answers through the imported provider with that key, and **Restore
 * previous settings** brings the old file back.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeProvider } from "../fixtures/fake-provider.js";
import { expect, fakeApiKey, test as base } from "./fixtures/app-test.js";
import { replies, sendMessage } from "./fixtures/chat-ui.js";

const key = fakeApiKey();

const test = base.extend<{ hermesAgentHome: string }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads fixture dependencies from this pattern.
  fakeProvider: async ({}, use) => {
    // The provider refuses a request without the key from Hermes' .env.
    const provider = await startFakeProvider({ apiKey: key, models: ["fake/chat-small"] });
    await use(provider);
    await provider.close();
  },
  hermesAgentHome: async ({ fakeProvider }, use) => {
    const dir = await mkdtemp(join(tmpdir(), "hermes-agent-e2e-"));
    await writeFile(
      join(dir, "config.yaml"),
      [
        "model:",
        "  provider: custom:team-gateway",
        "  default: fake/chat-small",
        "custom_providers:",
        "  - name: team-gateway",
        `    base_url: ${fakeProvider.baseURL}`,
        "    key_env: TEAM_GATEWAY_KEY",
        "plugins:",
        "  enabled: [next-prompt]",
        "  entries:",
        "    next-prompt:",
        "      granted_capabilities: [llm.side_question]",
        "display:",
        "  busy_input_mode: steer",
        "terminal:",
        "  backend: local",
        "",
      ].join("\n"),
    );
    await writeFile(join(dir, ".env"), `TEAM_GATEWAY_KEY=${key}\n`);
    await use(dir);
    await rm(dir, { recursive: true, force: true });
  },
  hostEnv: async ({ hermesAgentHome }, use) => {
    await use({ HERMES_HOME: hermesAgentHome });
  },
});

test("a person with a Hermes config imports it and chats; the .env key goes to the keychain", async ({
  page,
  hermes,
  hermesAgentHome,
  fakeProvider,
}) => {
  await page.goto(hermes.launchUrl);
  await expect(page.getByRole("heading", { name: "Hermes set-up found" })).toBeVisible();
  await page.getByRole("button", { name: "Import from Hermes" }).click();

  // Settings → General, the preview.
  await expect(page.getByRole("heading", { name: "General", exact: true })).toBeVisible();
  const preview = page.getByLabel("Import preview");
  await expect(preview).toContainText(`From ${join(hermesAgentHome, "config.yaml")}`);
  const changes = preview.getByRole("list", { name: "Changes" });
  await expect(changes).toContainText("providers.team-gateway");
  await expect(changes).toContainText("model.provider");
  await expect(changes).toContainText("display.busy_input_mode");
  const keyBox = preview.getByRole("checkbox", {
    name: `TEAM_GATEWAY_KEY for team-gateway ••••${key.slice(-4)}`,
  });
  await expect(keyBox).toBeChecked();
  await expect(preview.getByRole("list", { name: "Pending consent" })).toContainText(
    "next-prompt: llm.side_question",
  );
  await expect(preview.getByRole("list", { name: "Not imported" })).toContainText("terminal");
  expect(await page.content()).not.toContain(key);

  await preview.getByRole("button", { name: "Import", exact: true }).click();
  // The grant Hermes had is asked for again, never carried over silently.
  const consent = page.getByRole("dialog", { name: "Plugin consent" });
  await expect(consent).toBeVisible();
  await expect(consent).toContainText("next-prompt");
  await consent.getByRole("button", { name: "Decline" }).click();
  await expect(consent).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "Imported." })).toBeVisible();
  const config = await hermes.readConfig();
  expect(config).toContain("team-gateway");
  expect(config).toContain("busy_input_mode: steer");
  expect(config).not.toContain(key);
  expect(config).not.toContain("llm.side_question");

  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("button", { name: "Chat", exact: true })
    .click();
  fakeProvider.enqueue("Imported and answering.");
  await sendMessage(page, "Does it work?");
  await expect(replies(page).last()).toContainText("Imported and answering.");
  expect(fakeProvider.lastRequest()?.headers["authorization"]).toBe(`Bearer ${key}`);

  // Restore previous settings: the app is back to no settings at all.
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("button", { name: "Settings", exact: true })
    .click();
  await page
    .getByRole("navigation", { name: "Settings" })
    .getByRole("button", { name: "General", exact: true })
    .click();
  await page.getByRole("button", { name: "Restore previous settings" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "Your previous settings are back." }),
  ).toBeVisible();
  expect(await hermes.readConfig()).toBe("");
});
