/**
 * Keys, said plainly: without a keychain the Providers page says so before anyone types a key (in
 * the form's words) and a provider that only used key_env can still be removed; a provider with
 * no stored key is reported as such — not as a rejected key — with an offer to add one.
 */
import { startFakeProvider } from "../fixtures/fake-provider.js";
import { expect, test, uniqueSuffix } from "./fixtures/app-test.js";
import { openSettings, providerRow } from "./fixtures/app-ui.js";
import { replies, sendMessage } from "./fixtures/chat-ui.js";

test.describe("without a keychain", () => {
  test.use({ hostEnv: { DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent/hermes-bus", DISPLAY: "" } });

  test("the Providers page says so before a key is typed, and a key_env provider can be removed", async ({
    page,
    hermes,
    fakeProvider,
  }) => {
    const name = `Env Only ${uniqueSuffix()}`;
    const rpc = await hermes.rpc();
    await rpc.call("providers.save", {
      id: `env-${uniqueSuffix()}`,
      name,
      base_url: fakeProvider.baseURL,
      key_env: "HERMES_E2E_UNSET_KEY",
    });
    await page.goto(hermes.launchUrl);
    await openSettings(page, "Providers");
    const notice = page.getByRole("alert").filter({ hasText: "No system keychain is available" });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText("“API key”");
    await expect(notice).toContainText("“Key environment variable”");

    await page.getByRole("button", { name: "Add provider", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Custom", exact: true }).click();
    await expect(dialog.getByRole("alert").filter({ hasText: "No system keychain" })).toBeVisible();
    await expect(dialog.getByLabel("API key", { exact: true })).toBeDisabled();
    await page.keyboard.press("Escape");

    await providerRow(page, name).getByRole("button", { name: "Remove", exact: true }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Remove", exact: true }).click();
    await expect(page.getByRole("dialog")).toBeHidden();
    await expect(providerRow(page, name)).toHaveCount(0);
    expect(await hermes.readConfig()).not.toContain(name);
  });
});

test("a provider with no stored key says so, in Test connection and in chat, and offers to add one", async ({
  page,
  hermes,
}) => {
  const locked = await startFakeProvider({ apiKey: "sk-test-e2e-wants-a-key-0000000000000000" });
  try {
    const suffix = uniqueSuffix();
    const provider = { id: `nokey-${suffix}`, name: `No Key ${suffix}`, base_url: locked.baseURL };
    const rpc = await hermes.rpc();
    await rpc.call("providers.save", provider);
    await rpc.call("model.set", { scope: "main", provider: provider.id, model: "fake/chat-small" });
    await page.goto(hermes.launchUrl);

    await sendMessage(page, "Hello?");
    const failure = replies(page).last().getByRole("alert");
    await expect(failure).toContainText(`No API key is stored for ${provider.name}`);
    await expect(failure).not.toContainText("was not accepted");
    await failure.getByRole("button", { name: "Add a key" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await expect(page.getByRole("dialog").getByLabel("API key", { exact: true })).toBeEnabled();
    await page.keyboard.press("Escape");

    await openSettings(page, "Providers");
    const row = providerRow(page, provider.name);
    await row.getByRole("button", { name: "Test connection" }).click();
    await expect(row.getByRole("alert")).toContainText(`No API key is stored for ${provider.name}`);
    await row.getByRole("button", { name: "Add a key" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
  } finally {
    await locked.close();
  }
});
