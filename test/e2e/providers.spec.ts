/**
 * Settings → Providers from a first run: adding a Custom provider with a key, the key shown only as
 * its last 4 characters and found nowhere else in the browser or in config.yaml, Test connection
 * against the fake provider, and a plain-words error for a server that is not there.
 */
import { createServer } from "node:net";
import { fakeApiKey, expect, test, uniqueSuffix } from "./fixtures/app-test.js";
import { openSettings, providerRow, saveProviderDialog } from "./fixtures/app-ui.js";
import { documentHtml, fieldValues, pageStorage, recordWebSocketFrames } from "./fixtures/secret-probes.js";

/** A loopback port nothing listens on: bound by the OS, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string")
    throw new Error("No TCP address to borrow a port from.");
  return address.port;
}

test("a Custom provider's key is kept by the host and shown only as its last 4 characters", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  const frames = recordWebSocketFrames(page);
  const name = `E2E Fake ${uniqueSuffix()}`;
  const apiKey = fakeApiKey();
  const last4 = apiKey.slice(-4);
  const models = [`e2e/${uniqueSuffix()}-small`, `e2e/${uniqueSuffix()}-large`];
  fakeProvider.setModels(models);

  await page.goto(hermes.launchUrl);
  await expect(page.getByRole("heading", { name: "Welcome to Hermes Desktop" })).toBeVisible();
  await page.getByRole("button", { name: "Add a provider" }).click();
  await saveProviderDialog(page.getByRole("dialog", { name: "Add provider" }), {
    preset: "Custom",
    name,
    baseUrl: fakeProvider.baseURL,
    apiKey,
  });

  await openSettings(page, "Providers");
  const row = providerRow(page, name);
  await expect(row).toContainText(fakeProvider.baseURL);
  await expect(row).toContainText(`Key set ••••${last4}`);

  const lookForKey = async (when: string) => {
    expect(await documentHtml(page), `the DOM ${when}`).not.toContain(apiKey);
    expect((await fieldValues(page)).join("\n"), `input values ${when}`).not.toContain(apiKey);
    expect(JSON.stringify(await pageStorage(page)), `page storage ${when}`).not.toContain(apiKey);
  };
  await lookForKey("after saving");

  const config = await hermes.readConfig();
  expect(config, "config.yaml names the provider").toContain(fakeProvider.baseURL);
  expect(config, "config.yaml").not.toContain(apiKey);

  await page.reload();
  await openSettings(page, "Providers");
  await expect(row).toContainText(`Key set ••••${last4}`);
  await lookForKey("after a reload");

  // Slow /models once so the loading state is on screen long enough to be seen.
  fakeProvider.fault({ kind: "slow", delayMs: 1_500 }, { endpoint: "models" });
  await row.getByRole("button", { name: "Test connection" }).click();
  await expect(row.getByText("Testing…")).toBeVisible();
  const list = row.getByRole("list", { name: `Models of ${name}` });
  await expect(list.getByRole("listitem")).toHaveCount(models.length);
  for (const model of models) {
    await expect(list.getByRole("listitem").filter({ hasText: model })).toBeVisible();
  }
  await expect(row).toContainText(`${models.length} models`);
  // The key leaves the host only toward the provider.
  const modelRequests = fakeProvider.requests.filter((r) => r.path === "/v1/models");
  expect(modelRequests.map((r) => r.headers["authorization"])).toContain(`Bearer ${apiKey}`);
  await lookForKey("after Test connection");

  // The page talked to the host over /rpc, and only its own providers.save request carried the key.
  expect(frames.some((f) => f.direction === "received" && f.payload.includes(`"keyHint":"${last4}"`))).toBe(
    true,
  );
  const carryingKey = frames.filter((f) => f.payload.includes(apiKey));
  expect(carryingKey.map((f) => f.direction)).toEqual(["sent"]);
  expect(JSON.parse(carryingKey[0]?.payload ?? "null")).toMatchObject({
    method: "providers.save",
    params: { apiKey, base_url: fakeProvider.baseURL, name },
  });
});

test("Test connection against a server that is not running explains the failure in plain words", async ({
  page,
  hermes,
}) => {
  const name = `E2E Nowhere ${uniqueSuffix()}`;
  const baseUrl = `http://127.0.0.1:${await closedPort()}/v1`;

  await page.goto(hermes.launchUrl);
  await openSettings(page, "Providers");
  await expect(page.getByText("No providers yet")).toBeVisible();
  await page.getByRole("button", { name: "Add provider", exact: true }).first().click();
  await saveProviderDialog(page.getByRole("dialog", { name: "Add provider" }), {
    preset: "Custom",
    name,
    baseUrl,
  });

  const row = providerRow(page, name);
  await expect(row).toContainText(baseUrl);
  await expect(row).toContainText("No key");
  await row.getByRole("button", { name: "Test connection" }).click();

  const alert = row.getByRole("alert");
  await expect(alert).toBeVisible();
  await expect(alert).toContainText(/connect|reach|refused|running|respond/i);
  await expect(alert).toContainText("connection refused");
  // Plain words: no stack trace, no serialized object, no bare error code as the whole message.
  await expect(alert).not.toContainText(/\.m?[jt]s:\d+:\d+|\[object |\b[A-Z][A-Za-z]*Error:|^\s*E[A-Z]+\s*$/);
  await expect(row.getByRole("list", { name: `Models of ${name}` })).toHaveCount(0);
});

test("editing without a new key keeps the stored one, and Remove asks before deleting", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  const suffix = uniqueSuffix();
  const provider = { id: `e2e-edit-${suffix}`, name: `E2E Edit ${suffix}`, base_url: fakeProvider.baseURL };
  const apiKey = fakeApiKey();
  const rpc = await hermes.rpc();
  await rpc.call("providers.save", { ...provider, apiKey });

  await page.goto(hermes.launchUrl);
  await openSettings(page, "Providers");
  const row = page.locator(`[data-provider="${provider.id}"]`);
  await expect(row).toContainText(`Key set ••••${apiKey.slice(-4)}`);

  await row.getByRole("button", { name: "Edit" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit provider" });
  const keyField = dialog.getByLabel("API key", { exact: true });
  await expect(keyField).toHaveValue("");
  await expect(keyField).toHaveAttribute("placeholder", "Key set — leave empty to keep it");
  const renamed = `${provider.name} renamed`;
  await dialog.getByLabel("Name", { exact: true }).fill(renamed);
  await dialog.getByRole("button", { name: "Save", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText(renamed);
  await expect(row).toContainText(`Key set ••••${apiKey.slice(-4)}`);

  await row.getByRole("button", { name: "Remove" }).click();
  const confirm = page.getByRole("dialog");
  await confirm.getByRole("button", { name: "Remove", exact: true }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByText("No providers yet")).toBeVisible();
  const { providers } = await rpc.call<{ providers: { id: string }[] }>("providers.list");
  expect(providers.map((p) => p.id)).not.toContain(provider.id);
});
