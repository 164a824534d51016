/**
 * A plugin page's own socket (docs/contract.md §8, §11) in a real Chromium against web mode: the page's
 * `hermesPlugin` goes over `/plugin-pages/<id>/__hermes/socket` with its frame's page token; with
 * that token, even on a raw socket, it can call only its own plugin's methods (core methods and
 * another plugin's are `plugin_forbidden`), always for the session it is shown with, and hears only
 * its own plugin's events of that session; its CSP lets it open no other connection. A frame that
 * navigates to another plugin's page gets no usable scope: with its token the page is refused,
 * without it the app refuses its calls and relays it no events.
 */
import type { Page } from "@playwright/test";
import { expect, test, writeUserPlugin, type HermesHost } from "./fixtures/app-test.js";
import { setUpChat } from "./fixtures/chat-ui.js";

const backend = `export function register(ctx) {
  ctx.registerRpc("whoami", (params, context) => ({ plugin: "PLUGIN", sessionId: context.sessionId, sent: params.session_id ?? null }));
  ctx.registerRpc("emit", (params) => { ctx.emitToSession(params.to, params.event, { n: params.n }); return true; });
}`;

const pageHtml = (script: string) => `<!doctype html><html><head><meta charset="utf-8"><title>Page</title>
<script src="${script}"></script></head><body><pre id="results">running</pre><pre id="heard"></pre>
<button id="with-token">Go with token</button><button id="without-token">Go without token</button></body></html>`;

/** The page: its API call, then raw sockets with its own token, then what it hears. */
const probeScript = `(async () => {
  const results = {};
  const token = new URLSearchParams(location.search).get("hermesToken");
  const socketAt = (path, protocols) => new Promise((resolve) => {
    let ws;
    try { ws = new WebSocket("ws://" + location.host + path, protocols); }
    catch (error) { return resolve({ blocked: "throws: " + error.name }); }
    ws.onopen = () => resolve({ ws });
    ws.onerror = () => resolve({ blocked: "error" });
  });
  const ask = (ws, method, params) => new Promise((resolve) => {
    const id = Math.floor(Math.random() * 1e9);
    const onMessage = (event) => {
      const frame = JSON.parse(event.data);
      if (frame.id !== id) return;
      ws.removeEventListener("message", onMessage);
      resolve(frame.error ? "refused: " + frame.error.data.reason : "answered: " + JSON.stringify(frame.result));
    };
    ws.addEventListener("message", onMessage);
    ws.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
  });
  try {
    results.api = JSON.stringify(await hermesPlugin.request("whoami", { session_id: "someone-else" }));
  } catch (error) { results.api = "blocked: " + error.reason; }
  try { await hermesPlugin.request("plugin.other.whoami"); results.apiOther = "reached"; }
  catch (error) { results.apiOther = "blocked: " + error.reason; }
  const own = await socketAt("/plugin-pages/probe/__hermes/socket", ["hermes.page", "hermes.page.token." + token]);
  results.rawOwn = own.ws ? "open" : own.blocked;
  if (own.ws) {
    for (const method of ["session.list", "settings.get", "host.info", "plugins.setEnabled", "plugin.other.whoami"]) {
      results["raw " + method] = await ask(own.ws, method, {});
    }
    results["raw own"] = await ask(own.ws, "plugin.probe.whoami", { session_id: "someone-else" });
  }
  const otherSocket = await socketAt("/plugin-pages/other/__hermes/socket", ["hermes.page", "hermes.page.token." + token]);
  results.rawOtherPlugin = otherSocket.ws ? "open" : otherSocket.blocked;
  const rpc = await socketAt("/rpc", ["hermes.rpc"]);
  results.rawRpc = rpc.ws ? "open" : rpc.blocked;
  results.sessionId = hermesPlugin.sessionId;
  const heard = [];
  hermesPlugin.on("tick", (payload) => { heard.push(payload.n); document.getElementById("heard").textContent = JSON.stringify(heard); });
  document.getElementById("results").textContent = JSON.stringify(results);
})();`;

/** Another plugin's page: says what its calls got and which bridge messages reached it. */
const otherScript = `(async () => {
  const heard = [];
  window.addEventListener("message", (event) => {
    heard.push(JSON.stringify(event.data).slice(0, 2000));
    document.getElementById("heard").textContent = JSON.stringify(heard);
  });
  let result;
  try { result = "reached: " + JSON.stringify(await hermesPlugin.request("whoami", {})); }
  catch (error) { result = "blocked: " + error.reason; }
  document.getElementById("results").textContent = result;
})();`;

/** A page that navigates its own frame to the other plugin's page, with or without its token. */
const navScript = `document.addEventListener("DOMContentLoaded", () => {
  const query = new URLSearchParams(location.search);
  document.getElementById("results").textContent = "ready";
  document.getElementById("with-token").onclick = () => { location.href = "/plugin-pages/other/page/index.html?" + query; };
  document.getElementById("without-token").onclick = () => {
    query.delete("hermesToken");
    location.href = "/plugin-pages/other/page/index.html?" + query;
  };
});`;

async function addPagePlugin(hermes: HermesHost, id: string, script: string): Promise<void> {
  await writeUserPlugin(hermes.home, id, {
    "plugin.yaml": `name: ${id}\nversion: 1.0.0\ndescription: Page probe ${id}.\nmain: index.js\npages:\n  - {id: main, title: ${id} page, entry: page/index.html}\n`,
    "index.js": backend.replace("PLUGIN", id),
    "page/index.html": pageHtml("page.js"),
    "page/page.js": script,
  });
}

async function openPluginPage(page: Page, hermes: HermesHost, id: string) {
  await page.goto(hermes.launchUrl);
  await page
    .getByRole("navigation", { name: "Plugin pages" })
    .getByRole("button", { name: `${id} page` })
    .click();
  return page.frameLocator(`iframe[title="${id}: ${id} page"]`);
}

test("a page's own socket serves only its own plugin's methods and events for its session", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  const { rpc } = await setUpChat(hermes, fakeProvider);
  await addPagePlugin(hermes, "probe", probeScript);
  await addPagePlugin(hermes, "other", otherScript);
  await rpc.call("plugins.rescan");
  for (const id of ["probe", "other"]) await rpc.call("plugins.setEnabled", { id, enabled: true });
  const sockets: string[] = [];
  page.on("websocket", (ws) => sockets.push(new URL(ws.url()).pathname));

  const frame = await openPluginPage(page, hermes, "probe");
  const results = frame.locator("#results");
  await expect(results).not.toHaveText("running");
  const found = JSON.parse((await results.textContent()) ?? "{}") as Record<string, string>;
  const sessionId = found.sessionId!;
  expect(sessionId).toMatch(/\S/);

  // hermesPlugin went over the page's own socket, for the session it is shown with.
  expect(sockets).toContain("/plugin-pages/probe/__hermes/socket");
  expect(JSON.parse(found.api!)).toEqual({ plugin: "probe", sessionId, sent: sessionId });
  expect(found.apiOther).toBe("blocked: plugin_forbidden");
  // On a raw socket with its token: its own methods only, its session only.
  expect(found.rawOwn).toBe("open");
  for (const method of [
    "session.list",
    "settings.get",
    "host.info",
    "plugins.setEnabled",
    "plugin.other.whoami",
  ]) {
    expect(found[`raw ${method}`], method).toBe("refused: plugin_forbidden");
  }
  expect(found["raw own"]).toBe(
    `answered: ${JSON.stringify({ plugin: "probe", sessionId, sent: sessionId })}`,
  );
  // Its CSP lets it open no other socket: not another plugin's, not the app's.
  expect(found.rawOtherPlugin).not.toBe("open");
  expect(found.rawRpc).not.toBe("open");

  // It hears its own plugin's event of its session, not another session's nor another plugin's.
  await rpc.call("plugin.probe.emit", { to: "another-session", event: "tick", n: 1 });
  await rpc.call("plugin.other.emit", { to: sessionId, event: "tick", n: 2 });
  await rpc.call("plugin.probe.emit", { to: sessionId, event: "tick", n: 3 });
  await expect(frame.locator("#heard")).toHaveText("[3]");

  // The page file alone allows exactly its own socket as a connection.
  const response = await page.request.get(`${hermes.origin}/plugin-pages/probe/page/index.html`);
  const csp = response.headers()["content-security-policy"]!;
  expect(csp).toContain(
    `connect-src ${hermes.origin.replace("http", "ws")}/plugin-pages/probe/__hermes/socket;`,
  );
  expect(csp).toContain("sandbox allow-scripts");
});

/** Calls its own method on each press of the button, over whichever route its bridge is on. */
const askScript = `document.addEventListener("DOMContentLoaded", () => {
  let n = 0;
  const ask = async () => {
    n += 1;
    try {
      const answer = await hermesPlugin.request("whoami", {});
      document.getElementById("results").textContent = n + ": " + answer.plugin + " " + answer.sessionId;
    } catch (error) {
      document.getElementById("results").textContent = n + ": blocked: " + error.reason;
    }
  };
  document.getElementById("with-token").onclick = ask;
  void ask();
});`;

test("a page whose socket goes away keeps working through the app window", async ({
  page,
  hermes,
  fakeProvider,
}) => {
  const { rpc } = await setUpChat(hermes, fakeProvider);
  await addPagePlugin(hermes, "asker", askScript);
  await rpc.call("plugins.rescan");
  await rpc.call("plugins.setEnabled", { id: "asker", enabled: true });
  const closed: string[] = [];
  page.on("websocket", (ws) => ws.on("close", () => closed.push(new URL(ws.url()).pathname)));
  const frame = await openPluginPage(page, hermes, "asker");
  const results = frame.locator("#results");
  await expect(results).toHaveText(/^1: asker \S+$/);
  const sessionId = ((await results.textContent()) ?? "").split(" ")[2];

  // A new host knows no page token: the page socket closes and can't reopen; the app reconnects.
  await hermes.restart();
  await expect.poll(() => closed).toContain("/plugin-pages/asker/__hermes/socket");
  await expect(page.getByText("Reconnecting")).toHaveCount(0, { timeout: 15_000 });
  await expect(async () => {
    await frame.locator("#with-token").click();
    // A later press than the first, answered (not the first answer left standing).
    await expect(results).toHaveText(new RegExp(`^([2-9]|\\d\\d+): asker ${sessionId}$`), { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
});

for (const how of ["with-token", "without-token"] as const) {
  test(`a frame navigated to another plugin's page gets no scope (${how})`, async ({
    page,
    hermes,
    fakeProvider,
  }) => {
    const { rpc } = await setUpChat(hermes, fakeProvider);
    await addPagePlugin(hermes, "nav", navScript);
    await addPagePlugin(hermes, "other", otherScript);
    await rpc.call("plugins.rescan");
    for (const id of ["nav", "other"]) await rpc.call("plugins.setEnabled", { id, enabled: true });

    const frame = await openPluginPage(page, hermes, "nav");
    await expect(frame.locator("#results")).toHaveText("ready");
    const sessionId = await frame
      .locator("body")
      .evaluate(() => (window as unknown as { hermesPlugin: { sessionId: string } }).hermesPlugin.sessionId);
    await frame.locator(`#${how}`).click();
    if (how === "with-token") {
      // Served with the nav frame's token, the other plugin's page is refused outright.
      await expect(frame.locator("body")).toContainText("another plugin's page token");
      return;
    }
    // Served without a token, its calls are refused by the app, and it hears nothing of nav's.
    await expect(frame.locator("#results")).toHaveText("blocked: plugin_forbidden");
    await rpc.call("plugin.nav.emit", { to: sessionId, event: "tick", n: 1 });
    await rpc.call("plugin.other.emit", { to: sessionId, event: "tick", n: 2 });
    await page.waitForTimeout(500);
    const heard = (JSON.parse((await frame.locator("#heard").textContent()) || "[]") as string[]).map(
      (text) => JSON.parse(text) as { kind: string },
    );
    // The refusal of its call reached it; no event did.
    expect(heard.map((m) => m.kind)).toEqual(["response"]);
  });
}
