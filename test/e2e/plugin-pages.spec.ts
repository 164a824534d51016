/**
 * Plugin pages (docs/contract.md §8) in a real Chromium against web mode: the bundled chart-writer page round
 * trip (page → host → plugin worker → model → session event → page) draws an SVG chart; a page
 * in its sandboxed frame cannot call another plugin's method, nor reach the app's window, its
 * token, storage or `/rpc`.
 */
import type { Page } from "@playwright/test";
import { expect, test, writeUserPlugin } from "./fixtures/app-test.js";
import { setUpChat } from "./fixtures/chat-ui.js";

const pluginPages = (page: Page) => page.getByRole("navigation", { name: "Plugin pages" });

test("the chart-writer page draws the chart the model picked, as SVG", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  await setUpChat(hermes, fakeProvider, { plugins: ["chart-writer"] });
  fakeProvider.enqueue({
    kind: "json",
    value: { kind: "bar", title: "Sales by month", x: "month", y: ["sales"] },
  });
  await page.goto(hermes.launchUrl);

  const nav = pluginPages(page);
  await expect(nav.getByRole("group", { name: "chart-writer" })).toBeVisible();
  await nav.getByRole("button", { name: "Charts" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Charts" })).toBeVisible();

  const frame = page.frameLocator('iframe[title="chart-writer: Charts"]');
  await frame.getByLabel("Table (CSV or Markdown)").fill("month,sales\nJan,120\nFeb,98\nMar,143");
  await frame.getByRole("button", { name: "Suggest chart" }).click();
  const chart = frame.getByRole("img", { name: "bar chart: Sales by month" });
  await expect(chart).toBeVisible();
  await expect(chart.locator("rect.bar")).toHaveCount(3);
  await expect(frame.getByRole("status")).toHaveText("");

  // The model got the table, through the plugin's own slot.
  const request = fakeProvider.requests.at(-1)!;
  expect(JSON.stringify(request.body)).toContain("Jan,120");
  expect(JSON.stringify(request.body)).toContain("json_schema");

  // A model that does not answer JSON: said in plain words on the page.
  fakeProvider.enqueue("I think a bar chart would be nice.");
  await frame
    .getByLabel("Table (CSV or Markdown)")
    .fill("| city | people |\n|---|---|\n| Oslo | 700 |\n| Bergen | 290 |");
  await frame.getByRole("button", { name: "Suggest chart" }).click();
  await expect(frame.getByRole("alert")).toContainText("did not answer with JSON");
  // The error replaces the earlier chart instead of being drawn over it.
  await expect(frame.getByRole("region", { name: "Chart" }).locator("svg")).toHaveCount(0);
});

const probeBackend = `export function register(ctx) {
  ctx.registerRpc("whoami", (params, context) => ({ sessionId: context.sessionId, sent: params.session_id }));
}`;

const probePage = `<!doctype html><html><head><meta charset="utf-8"><title>Probe</title>
<script src="probe.js"></script></head><body><pre id="results">running</pre></body></html>`;

const probeScript = `(async () => {
  const results = {};
  const attempt = async (name, fn) => {
    try { results[name] = "reached: " + String(await fn()).slice(0, 300); }
    catch (error) { results[name] = "blocked: " + (error && (error.reason || error.name)); }
  };
  await attempt("parentDocument", () => window.parent.document.title);
  await attempt("topLocation", () => window.top.location.href);
  await attempt("parentSessionStorage", () => window.parent.sessionStorage.getItem("hermes.launchToken"));
  await attempt("ownSessionStorage", () => sessionStorage.getItem("hermes.launchToken"));
  await attempt("ownLocalStorage", () => localStorage.length);
  await attempt("cookie", () => document.cookie);
  await attempt("fetchRpc", () => fetch("/rpc", { credentials: "include" }).then((r) => r.status));
  await attempt("fetchApi", () => fetch("/api/model/auxiliary", { credentials: "include" }).then((r) => r.status));
  await attempt("otherPlugin", () => hermesPlugin.request("plugin.chart-writer.chart.suggest", { text: "a,b\\n1,2" }));
  await attempt("otherPluginBare", () => hermesPlugin.request("plugins.setEnabled", { id: "x", enabled: true }));
  await attempt("ownMethod", () => hermesPlugin.request("whoami", { session_id: "someone-else" }).then((r) => JSON.stringify(r)));
  results.sessionId = hermesPlugin.sessionId;
  document.getElementById("results").textContent = JSON.stringify(results);
})();`;

test("a page cannot call another plugin's method or reach the app's window, token, storage or /rpc", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  const { rpc } = await setUpChat(hermes, fakeProvider);
  await writeUserPlugin(hermes.home, "probe", {
    "plugin.yaml":
      "name: probe\nversion: 1.0.0\ndescription: Probes its sandbox.\nmain: index.js\npages:\n  - {id: probe, title: Probe, entry: page/index.html}\n",
    "index.js": probeBackend,
    "page/index.html": probePage,
    "page/probe.js": probeScript,
  });
  await rpc.call("plugins.rescan");
  await rpc.call("plugins.setEnabled", { id: "chart-writer", enabled: true });
  await rpc.call("plugins.setEnabled", { id: "probe", enabled: true });

  await page.goto(hermes.launchUrl);
  await pluginPages(page).getByRole("button", { name: "Probe" }).click();
  const results = page.frameLocator('iframe[title="probe: Probe"]').locator("#results");
  await expect(results).not.toHaveText("running");
  const found = JSON.parse((await results.textContent()) ?? "{}") as Record<string, string>;

  expect(found.parentDocument).toMatch(/^blocked/);
  expect(found.topLocation).toMatch(/^blocked/);
  expect(found.parentSessionStorage).toMatch(/^blocked/);
  expect(found.ownSessionStorage).toMatch(/^blocked/);
  expect(found.ownLocalStorage).toMatch(/^blocked/);
  expect(found.cookie).toMatch(/^blocked/);
  expect(found.fetchRpc).toMatch(/^blocked/);
  expect(found.fetchApi).toMatch(/^blocked/);
  expect(found.otherPlugin).toBe("blocked: plugin_forbidden");
  expect(found.otherPluginBare).toBe("blocked: method_not_found");
  // Its own method works, and speaks for the session it is shown with, whatever the page claims.
  const own = JSON.parse(found.ownMethod!.replace(/^reached: /, "")) as { sessionId: string; sent: string };
  expect(own.sessionId).toBe(found.sessionId);
  expect(own.sent).toBe(found.sessionId);
  expect(found.sessionId).toMatch(/\S/);
  // chart-writer saw no call from the probe.
  expect(fakeProvider.requests.filter((r) => JSON.stringify(r.body).includes("a,b"))).toHaveLength(0);

  // The page file served on its own (not framed) is still sandboxed by its CSP, and carries no token.
  const response = await page.request.get(`${hermes.origin}/plugin-pages/probe/page/index.html`);
  expect(response.headers()["content-security-policy"]).toContain("sandbox allow-scripts");
  // Its one allowed connection is its own page socket.
  expect(response.headers()["content-security-policy"]).toContain(
    `connect-src ${hermes.origin.replace("http", "ws")}/plugin-pages/probe/__hermes/socket;`,
  );
  expect((await page.request.get(`${hermes.origin}/plugin-pages/probe/index.js`)).status()).toBe(404);
  expect((await page.request.get(`${hermes.origin}/plugin-pages/probe/page/..%2Fplugin.yaml`)).status()).toBe(
    404,
  );
});
