/**
 * Every REST route of web mode (docs/contract.md §11) against a real host and web server, the same methods
 * over RPC, and the drift test: every surface lists the registry's slots, no more, no fewer.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AuxiliaryTaskRow } from "../../../electron/host/rpc/methods/model.js";
import type { WebServer } from "../../../electron/web/server.js";
import { restRoutes } from "../../../electron/web/rest.js";
import type { TestHost } from "../support/test-host.js";
import { startWebTestServer, type WebTestServer } from "../support/web-test-server.js";

const token = "test-token-abcdefghijklmnop-rest";
let t: TestHost;
let server: WebServer;
let web: WebTestServer;

beforeEach(async () => {
  web = await startWebTestServer(token);
  ({ t, server } = web);
  t.host.settings.update((doc) => {
    doc.providers = {
      main: { name: "Main", base_url: "https://main.example/v1" },
      old: { name: "Old", base_url: "https://old.example/v1" },
      lan: { name: "LAN", base_url: "http://192.168.1.5:8080/v1" },
    };
    doc.model = { provider: "main", model: "main/model" };
  });
  t.host.auxiliaryTasks.register("classifier", "classify", {
    displayName: "Classify",
    description: "Sorts messages.",
    inheritFrom: "compression",
    defaults: { timeout: 90 },
  });
});

afterEach(async () => web.dispose());

const auth = { Authorization: `Bearer ${token}` };
const url = (path: string) => `http://127.0.0.1:${server.port}${path}`;
const get = async (path: string) => {
  const res = await fetch(url(path), { headers: auth });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const post = async (path: string, body: unknown) => {
  const res = await fetch(url(path), {
    method: "POST",
    headers: { ...auth, "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
/** POST /api/model/set for one auxiliary slot, the request most tests here make. */
const setAuxiliary = (task: string, provider: string, model: string) =>
  post("/api/model/set", { scope: "auxiliary", task, provider, model });
const tasks = (body: Record<string, unknown>) => body.tasks as AuxiliaryTaskRow[];

describe("GET /api/model/auxiliary", () => {
  it("lists every slot with the docs/contract.md §11 shape, built-ins first, then plugin slots", async () => {
    const { status, body } = await get("/api/model/auxiliary");
    expect(status).toBe(200);
    expect(tasks(body).map((r) => r.task)).toEqual([
      "vision",
      "compression",
      "title_generation",
      "background_review",
      "mcp",
      "classify",
    ]);
    expect(tasks(body)[0]).toEqual({
      task: "vision",
      provider: "auto",
      model: "",
      base_url: "",
      timeout: 30,
      label: "Vision",
      hint: "Describes images when the main model is text-only.",
      inherit_from: null,
      effective: { provider: "main", model: "main/model", base_url: "https://main.example/v1" },
      stale: false,
      source: "main",
      chain: ["vision"],
      broken: null,
      follow_blocked: null,
    });
    expect(tasks(body)[5]).toMatchObject({
      task: "classify",
      label: "Classify",
      plugin: "classifier",
      inherit_from: "compression",
      timeout: 90,
      hint: expect.stringContaining("classifier"),
    });
  });

  it("answers 401 without the token and 405 to a POST", async () => {
    expect((await fetch(url("/api/model/auxiliary"))).status).toBe(401);
    expect((await post("/api/model/auxiliary", {})).status).toBe(405);
  });

  it("answers 404 to a path that is no route", async () => {
    const { status, body } = await get("/api/model/nothing");
    expect(status).toBe(404);
    expect(body.error).toContain("/api/model/nothing");
  });
});

describe("POST /api/model/set", () => {
  it("pins a slot and answers the updated row; the file holds the pin", async () => {
    const { status, body } = await setAuxiliary("title_generation", "old", "old/titles");
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, scope: "auxiliary" });
    expect(tasks(body)).toEqual([
      expect.objectContaining({
        task: "title_generation",
        provider: "old",
        model: "old/titles",
        effective: { provider: "old", model: "old/titles", base_url: "https://old.example/v1" },
        stale: true,
        source: "pin",
      }),
    ]);
    expect(t.host.settings.get().auxiliary.title_generation).toEqual({
      provider: "old",
      model: "old/titles",
    });
  });

  it("provider auto makes a slot follow its base again, keeping its other settings", async () => {
    await setAuxiliary("compression", "old", "old/sum");
    t.host.settings.set("auxiliary.classify", { provider: "lan", model: "l", timeout: 12 });
    const { body } = await setAuxiliary("classify", "auto", "");
    expect(tasks(body)[0]).toMatchObject({ task: "classify", provider: "auto", source: "main", timeout: 12 });
    expect(t.host.settings.get().auxiliary.classify).toEqual({ timeout: 12 });
  });

  it("__reset__ resets every slot, plugin slots included", async () => {
    await setAuxiliary("vision", "old", "old/vl");
    await setAuxiliary("classify", "lan", "l");
    const { status, body } = await setAuxiliary("__reset__", "auto", "");
    expect(status).toBe(200);
    expect(tasks(body).map((r) => [r.task, r.source])).toEqual([
      ["vision", "main"],
      ["compression", "main"],
      ["title_generation", "main"],
      ["background_review", "main"],
      ["mcp", "main"],
      ["classify", "main"],
    ]);
    expect(t.host.settings.get().auxiliary).toEqual({});
  });

  it("__reset__ needs no provider or model with it; a provider other than auto with it is refused", async () => {
    await setAuxiliary("vision", "old", "old/vl");
    const { status, body } = await post("/api/model/set", { scope: "auxiliary", task: "__reset__" });
    expect(status).toBe(200);
    expect(tasks(body).every((r) => r.source === "main")).toBe(true);
    expect(t.host.settings.get().auxiliary).toEqual({});
    const odd = await post("/api/model/set", {
      scope: "auxiliary",
      task: "__reset__",
      provider: "old",
      model: "",
    });
    expect(odd.status).toBe(400);
    // A single slot still names its provider and model.
    expect((await post("/api/model/set", { scope: "auxiliary", task: "vision" })).status).toBe(400);
    expect((await post("/api/model/set", { scope: "main", provider: "main" })).status).toBe(400);
  });

  it("switching the main model answers the slots left stale", async () => {
    await setAuxiliary("vision", "old", "old/vl");
    await setAuxiliary("classify", "lan", "l");
    const { status, body } = await post("/api/model/set", {
      scope: "main",
      provider: "main",
      model: "main/next",
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      ok: true,
      scope: "main",
      provider: "main",
      model: "main/next",
      stale_aux: [{ task: "vision", provider: "old", model: "old/vl" }],
    });
  });

  it("an unknown task: HTTP 400 unknown auxiliary task, nothing written", async () => {
    const { status, body } = await setAuxiliary("nope", "old", "x");
    expect(status).toBe(400);
    expect(body.error).toContain("unknown auxiliary task");
    expect(t.host.settings.get().auxiliary).toEqual({});
  });

  it("a pin to a provider that does not exist names it", async () => {
    const { status, body } = await setAuxiliary("vision", "ghost", "x");
    expect(status).toBe(400);
    expect(body).toMatchObject({ reason: "invalid_params", error: expect.stringContaining('"ghost"') });
    expect(body.error).toContain("auxiliary.vision.provider");
  });

  it("bad bodies: not JSON, missing fields, a bad base_url", async () => {
    expect((await post("/api/model/set", "{not json")).status).toBe(400);
    const missing = await post("/api/model/set", { scope: "auxiliary", provider: "old", model: "x" });
    expect(missing.status).toBe(400);
    const badUrl = await post("/api/model/set", {
      scope: "auxiliary",
      task: "vision",
      provider: "old",
      model: "x",
      base_url: "ftp://x",
    });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.error).toContain("base_url");
    expect((await get("/api/model/set")).status).toBe(405);
  });
});

describe("the same over RPC", () => {
  it("model.auxiliary.list equals the REST answer; an unknown task is invalid_params", async () => {
    const rest = await get("/api/model/auxiliary");
    const rpc = await t.call("model.auxiliary.list", {});
    expect(rpc.result).toEqual(rest.body);
    const bad = await t.call("model.set", { scope: "auxiliary", task: "nope", provider: "auto", model: "" });
    expect(bad.error).toMatchObject({
      data: { reason: "invalid_params" },
      message: expect.stringContaining("unknown auxiliary task"),
    });
  });

  it("a slot block that is not a map is refused and names the key", async () => {
    const bad = await t.call("settings.set", { key: "auxiliary.vision", value: "fast" });
    expect(bad.error).toMatchObject({
      data: { reason: "invalid_params" },
      message: expect.stringContaining("auxiliary.vision"),
    });
  });
});

describe("drift: every surface lists the registry's slots", () => {
  it("registry, RPC, REST, reset-all and stale detection agree, and follow a plugin going away", async () => {
    const check = async () => {
      const keys = t.host.auxiliaryTasks.keys();
      const rest = tasks((await get("/api/model/auxiliary")).body).map((r) => r.task);
      const rpc = tasks((await t.call("model.auxiliary.list", {})).result as Record<string, unknown>).map(
        (r) => r.task,
      );
      // Pin every slot (and a stray block) to a public provider: stale detection must see exactly the registry's.
      t.host.settings.update((doc) => {
        doc.auxiliary = Object.fromEntries(
          [...keys, "stray_block"].map((k) => [k, { provider: "old", model: "o" }]),
        );
      });
      const main = (await post("/api/model/set", { scope: "main", provider: "main", model: "main/model" }))
        .body;
      const stale = (main.stale_aux as { task: string }[]).map((s) => s.task);
      const reset = tasks((await setAuxiliary("__reset__", "auto", "")).body).map((r) => r.task);
      expect(rest).toEqual(keys);
      expect(rpc).toEqual(keys);
      expect(stale).toEqual(keys);
      expect(reset).toEqual(keys);
      // Reset-all touched the registry's slots only; the stray block (e.g. a disabled plugin's) stays.
      expect(Object.keys(t.host.settings.get().auxiliary)).toEqual(["stray_block"]);
      return keys;
    };
    expect(await check()).toContain("classify");
    t.host.auxiliaryTasks.removePlugin("classifier");
    expect(await check()).not.toContain("classify");
  });

  it("the REST route table names contract methods only", () => {
    expect(Object.values(restRoutes).map((r) => r.rpcMethod)).toEqual(["model.auxiliary.list", "model.set"]);
  });
});
