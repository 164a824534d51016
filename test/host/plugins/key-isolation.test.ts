import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PluginContext } from "../../../plugins/sdk/types.js";
import { FAKE_KEY, OTHER_KEY, enable, startRig, writePlugin, type Rig } from "./plugin-rig.js";

const KEY_ENV = "HERMES_PLUGIN_TEST_KEY";
let rig: Rig;

beforeAll(async () => {
  process.env[KEY_ENV] = FAKE_KEY;
  rig = await startRig({ vaultEnv: process.env });
  rig.settings.set("providers.fake.key_env", KEY_ENV);
});
afterAll(async () => {
  delete process.env[KEY_ENV];
  await rig.dispose();
});

/** Every string reachable from `root` through own properties (getters included) and prototypes. */
function reachableStrings(root: unknown): string[] {
  const seen = new Set<unknown>();
  const out: string[] = [];
  const visit = (value: unknown, depth: number) => {
    if (typeof value === "string") return void out.push(value);
    if ((typeof value !== "object" && typeof value !== "function") || value === null || seen.has(value))
      return;
    if (depth > 12) return;
    seen.add(value);
    if (typeof value === "function") out.push(value.toString());
    for (const key of Reflect.ownKeys(value)) {
      out.push(String(key));
      let item: unknown;
      try {
        item = (value as Record<PropertyKey, unknown>)[key];
      } catch {
        continue;
      }
      visit(item, depth + 1);
    }
    const proto = Object.getPrototypeOf(value);
    if (proto && proto !== Object.prototype && proto !== Function.prototype) visit(proto, depth + 1);
  };
  visit(root, 0);
  return out;
}

describe("a plugin never receives a key", () => {
  it("not through ctx, results, errors or process.env", async () => {
    writePlugin(rig.userPlugins, "snoop", {
      "index.js": `export function register(ctx) { globalThis.__snoopCtx = ctx; }`,
    });
    enable(rig.settings, "snoop");
    const manager = rig.manager();
    await manager.start();
    const ctx = (globalThis as { __snoopCtx?: PluginContext }).__snoopCtx!;
    expect(ctx.pluginId).toBe("snoop");

    rig.provider.enqueue({ kind: "tool_calls", toolCalls: [{ name: "t", arguments: {} }], content: "c" });
    const complete = await ctx.llm.complete({ messages: [{ role: "user", content: "hi" }] });
    rig.provider.enqueue('{"a": 1}');
    const structured = await ctx.llm.completeStructured({
      instructions: "x",
      input: [{ type: "text", text: "y" }],
      jsonMode: true,
    });
    rig.provider.fault({ kind: "http_error", status: 401, message: "invalid api key" });
    const failure = await ctx.llm
      .complete({ messages: [{ role: "user", content: "hi" }] })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(Error);
    // The key was really used: the provider demands it.
    expect(rig.provider.requests[0]!.headers.authorization).toBe(`Bearer ${FAKE_KEY}`);

    const strings = reachableStrings({
      ctx,
      complete,
      structured,
      failure,
      message: (failure as Error).message,
    });
    expect(strings).toContain("snoop"); // the walk does reach into ctx
    for (const key of [FAKE_KEY, OTHER_KEY]) {
      expect(strings.some((s) => s.includes(key))).toBe(false);
    }
    // key_env was read once, then removed from the host's environment.
    expect(process.env[KEY_ENV]).toBeUndefined();
    expect(Object.values(process.env).some((v) => v === FAKE_KEY)).toBe(false);
    await manager.close();
  });

  it("ctx.redact masks vault keys, honours security.redact_secrets, and force overrides it", async () => {
    writePlugin(rig.userPlugins, "redactor", {
      "index.js": `export function register(ctx) { globalThis.__redactCtx = ctx; }`,
    });
    enable(rig.settings, "redactor");
    const manager = rig.manager();
    await manager.start();
    const ctx = (globalThis as { __redactCtx?: PluginContext }).__redactCtx!;
    const text = `key ${OTHER_KEY} and Bearer abcdefghijklmnop1234`;
    expect(ctx.redact(text)).not.toContain(OTHER_KEY);
    rig.settings.set("security.redact_secrets", false);
    expect(ctx.redact(text)).toBe(text);
    const forced = ctx.redact(text, { force: true });
    expect(forced).not.toContain(OTHER_KEY);
    expect(forced).not.toContain("abcdefghijklmnop1234");
    rig.settings.set("security.redact_secrets", true);
    await manager.close();
  });
});
