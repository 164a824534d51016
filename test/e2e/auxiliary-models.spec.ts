/**
 * Settings → Models → Auxiliary in a real Chromium against web mode (docs/contract.md §6.5): a pin made in
 * the UI reaches the fake provider on the next title request, Follow <Base> on a plugin slot,
 * and the stale banner after a main-model switch with its own Reset all to main.
 */
import type { Locator, Page } from "@playwright/test";
import { parse } from "yaml";
import { expect, test, uniqueSuffix } from "./fixtures/app-test.js";
import { openSettings } from "./fixtures/app-ui.js";

async function openAuxiliaryTab(page: Page): Promise<void> {
  await openSettings(page, "Models");
  await page.getByRole("tablist").getByRole("tab", { name: "Auxiliary", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Auxiliary models", exact: true })).toBeVisible();
}

const slotRow = (page: Page, task: string): Locator => page.locator(`[data-task="${task}"]`);
const routeOf = (row: Locator): Locator => row.getByTestId("aux-route");

/** Change → provider → model → Apply; the editor opens with focus on its first field. */
async function pinInUi(row: Locator, providerName: string, model: string): Promise<void> {
  await row.getByRole("button", { name: "Change", exact: true }).click();
  const provider = row.getByLabel("Provider", { exact: true });
  await expect(provider).toBeFocused();
  await provider.selectOption({ label: providerName });
  const modelSelect = row.getByLabel("Model", { exact: true });
  await expect(modelSelect).toBeEnabled();
  await modelSelect.selectOption(model);
  await row.getByRole("button", { name: "Apply", exact: true }).click();
  await expect(row.getByRole("button", { name: "Apply", exact: true })).toHaveCount(0);
}

test("a title_generation pin made in the UI reaches the pinned model on the next title request", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  const suffix = uniqueSuffix();
  const main = { id: `main-${suffix}`, name: `Main ${suffix}`, base_url: fakeProvider.baseURL };
  const titles = { id: `titles-${suffix}`, name: `Titles ${suffix}`, base_url: fakeProvider.baseURL };
  fakeProvider.setModels(["fake/chat-small", "fake/titles-tiny"]);
  const rpc = await hermes.rpc();
  await rpc.call("providers.save", main);
  await rpc.call("providers.save", titles);
  await rpc.call("model.set", { scope: "main", provider: main.id, model: "fake/chat-small" });

  await page.goto(hermes.launchUrl);
  await openAuxiliaryTab(page);
  // Drift: the page lists exactly the slots the REST API lists, in its order.
  const rest = (await (
    await fetch(`${hermes.origin}/api/model/auxiliary`, {
      headers: { Authorization: `Bearer ${hermes.token}` },
    })
  ).json()) as { tasks: { task: string }[] };
  await expect(page.locator("[data-task]")).toHaveCount(rest.tasks.length);
  expect(
    await page.locator("[data-task]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-task"))),
  ).toEqual(rest.tasks.map((t) => t.task));

  const row = slotRow(page, "title_generation");
  await expect(routeOf(row)).toHaveText("auto · use main model");
  await pinInUi(row, titles.name, "fake/titles-tiny");
  await expect(routeOf(row)).toHaveText(`${titles.id} · fake/titles-tiny`);
  const config = parse((await hermes.readConfig()) ?? "") as { auxiliary?: Record<string, unknown> };
  expect(config.auxiliary?.title_generation).toEqual({ provider: titles.id, model: "fake/titles-tiny" });

  // The next chat's title request goes to the pinned model: no restart, no reload.
  const { sessionId } = await rpc.call<{ sessionId: string }>("session.create", {});
  await rpc.call("session.send", { sessionId, text: "Plan a trip to Lisbon" });
  await expect
    .poll(() =>
      fakeProvider.requests.some((r) => {
        const body = r.body as { model?: string; messages?: { content?: unknown }[] } | undefined;
        return body?.model === "fake/titles-tiny" && String(body.messages?.[0]?.content).includes("title");
      }),
    )
    .toBe(true);

  // Reset puts it back on the main model.
  await row.getByRole("button", { name: "Reset", exact: true }).click();
  await expect(routeOf(row)).toHaveText("auto · use main model");
});

test("a pinned plugin slot can Follow its base again", async ({ page, hermes, fakeProvider }) => {
  const suffix = uniqueSuffix();
  const main = { id: `main-${suffix}`, name: `Main ${suffix}`, base_url: fakeProvider.baseURL };
  const other = { id: `other-${suffix}`, name: `Other ${suffix}`, base_url: fakeProvider.baseURL };
  fakeProvider.setModels(["fake/chat-small", "fake/sorter"]);
  const rpc = await hermes.rpc();
  await rpc.call("providers.save", main);
  await rpc.call("providers.save", other);
  await rpc.call("model.set", { scope: "main", provider: main.id, model: "fake/chat-small" });
  await rpc.call("plugins.setEnabled", { id: "classifier", enabled: true });

  await page.goto(hermes.launchUrl);
  await openAuxiliaryTab(page);
  const row = slotRow(page, "classifier");
  await expect(row).toContainText("Classifier");
  await expect(row).toContainText("plugin classifier");
  await expect(routeOf(row)).toHaveText("auto · use main model");
  await expect(row.getByRole("button", { name: "Follow Compression" })).toHaveCount(0);

  await pinInUi(row, other.name, "fake/sorter");
  await expect(routeOf(row)).toHaveText(`${other.id} · fake/sorter`);
  // Without llm.task_override a built-in's route does not carry over (docs/contract.md §6.4): Follow is
  // not offered as if it would, and the row says why; Reset is the way back.
  const follow = row.getByRole("button", { name: "Follow Compression", exact: true });
  await expect(follow).toBeDisabled();
  await expect(row).toContainText("Follow Compression is not available:");
  await expect(row).toContainText("llm.task_override");
  await row.getByRole("button", { name: "Reset", exact: true }).click();
  await expect(routeOf(row)).toHaveText("auto · use main model");

  // With the grant, Follow is there and following compression's pin shows the inherited route in words.
  await rpc.call("settings.set", {
    key: "plugins.entries.classifier",
    value: { llm: { allow_task_override: true } },
  });
  await pinInUi(row, other.name, "fake/sorter");
  await expect(follow).toBeEnabled();
  await follow.click();
  await expect(routeOf(row)).toHaveText("auto · use main model");
  const config = parse((await hermes.readConfig()) ?? "") as { auxiliary?: Record<string, unknown> };
  expect(config.auxiliary?.classifier).toBeUndefined();
  await rpc.call("model.set", {
    scope: "auxiliary",
    task: "compression",
    provider: other.id,
    model: "fake/sorter",
  });
  await expect(routeOf(row)).toHaveText(`inherits Compression · ${other.id} · fake/sorter`);
});

test("after a main-model switch the stale banner names the slots and resets them all", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  const suffix = uniqueSuffix();
  const cloud = { id: `cloud-${suffix}`, name: `Cloud ${suffix}`, base_url: "https://api.cloud.example/v1" };
  const local = { id: `local-${suffix}`, name: `Local ${suffix}`, base_url: fakeProvider.baseURL };
  const rpc = await hermes.rpc();
  await rpc.call("providers.save", cloud);
  await rpc.call("providers.save", local);
  await rpc.call("model.set", { scope: "main", provider: cloud.id, model: "cloud/big" });
  await rpc.call("model.set", { scope: "auxiliary", task: "vision", provider: cloud.id, model: "cloud/vl" });
  await rpc.call("model.set", {
    scope: "auxiliary",
    task: "compression",
    provider: cloud.id,
    model: "cloud/sum",
  });

  await page.goto(hermes.launchUrl);
  await openAuxiliaryTab(page);
  await expect(routeOf(slotRow(page, "vision"))).toHaveText(`${cloud.id} · cloud/vl`);
  const banner = page.getByTestId("aux-stale-banner");
  await expect(banner).toHaveCount(0);

  // Switch the main model in the UI, then come back.
  await page.getByRole("tablist").getByRole("tab", { name: "Main", exact: true }).click();
  await page.getByLabel("Provider", { exact: true }).selectOption({ label: local.name });
  await page.getByRole("combobox", { name: "Model", exact: true }).fill("fake/chat-small");
  await page.getByRole("listbox").getByRole("option", { name: "fake/chat-small", exact: true }).click();
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved:" })).toBeVisible();
  // The Main tab says at once which pins the switch left on the old provider (by its display name).
  await expect(banner).toHaveText(
    new RegExp(
      `^2 auxiliary task\\(s\\) \\(Vision, Compression\\) still run on ${cloud.name}, not your main model\\.`,
    ),
  );
  await page.getByRole("tablist").getByRole("tab", { name: "Auxiliary", exact: true }).click();

  await expect(banner).toHaveText(
    new RegExp(
      `^2 auxiliary task\\(s\\) \\(Vision, Compression\\) still run on ${cloud.name}, not your main model\\.`,
    ),
  );
  await banner.getByRole("button", { name: "Reset all to main", exact: true }).click();
  await expect(banner).toHaveCount(0);
  for (const task of ["vision", "compression", "title_generation", "background_review"]) {
    await expect(routeOf(slotRow(page, task))).toHaveText("auto · use main model");
  }
  const config = parse((await hermes.readConfig()) ?? "") as { auxiliary?: Record<string, unknown> };
  expect(config.auxiliary ?? {}).toEqual({});
});
