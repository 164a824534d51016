/**
 * Settings → Models → Main: picking a provider and one of its models, saving it to config.yaml,
 * and finding it still set after the host restarts.
 */
import { parse } from "yaml";
import { expect, test, uniqueSuffix } from "./fixtures/app-test.js";
import { openMainModelTab } from "./fixtures/app-ui.js";

test("the main model is saved to config.yaml and survives a host restart", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  const suffix = uniqueSuffix();
  const provider = { id: `e2e-main-${suffix}`, name: `E2E Main ${suffix}`, base_url: fakeProvider.baseURL };
  const models = ["fake/chat-small", "fake/chat-large", "fake/vision"];
  fakeProvider.setModels(models);
  // Set up through the API: this spec is about the main model, not about adding providers.
  const rpc = await hermes.rpc();
  await rpc.call("providers.save", provider);

  await page.goto(hermes.launchUrl);
  await openMainModelTab(page);
  const providerSelect = page.getByLabel("Provider", { exact: true });
  await providerSelect.selectOption({ label: provider.name });

  const modelBox = page.getByRole("combobox", { name: "Model", exact: true });
  await modelBox.click();
  const listbox = page.getByRole("listbox");
  // Every model the provider lists is offered (in whatever order the UI sorts them).
  await expect(listbox.getByRole("option")).toHaveCount(models.length);
  for (const model of models) {
    await expect(listbox.getByRole("option", { name: model, exact: true })).toBeVisible();
  }
  await modelBox.fill("large");
  await expect(listbox.getByRole("option")).toHaveText(["fake/chat-large"]);
  await listbox.getByRole("option", { name: "fake/chat-large" }).click();
  await expect(modelBox).toHaveValue("fake/chat-large");

  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved:" })).toHaveText(
    `Saved: ${provider.name} · fake/chat-large`,
  );

  const config = parse((await hermes.readConfig()) ?? "") as { model?: unknown };
  expect(config.model).toEqual({ provider: provider.id, model: "fake/chat-large" });

  await hermes.restart();
  await page.reload();
  await openMainModelTab(page);
  await expect(page.getByLabel("Provider", { exact: true }).locator("option:checked")).toHaveText(
    provider.name,
  );
  await expect(page.getByRole("combobox", { name: "Model", exact: true })).toHaveValue("fake/chat-large");
});
