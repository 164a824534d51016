import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../support/temp-home.js";
import { FAKE_KEY, OTHER_KEY, loadCtxPlugin, startRig, type Rig } from "./plugin-rig.js";

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
    const { ctx, manager } = await loadCtxPlugin(rig, "snoop");
    expect(ctx.pluginId).toBe("snoop");

    rig.provider.enqueue({ kind: "tool_calls", toolCalls: [{ name: "t", arguments: {} }], content: "c" });
    const complete = await ctx.llm.complete({ messages: [{ role: "user", content: "hi" }] });
    rig.provider.enqueue('{"a": 1}');
    const structured = await ctx.llm.completeStructured({
      instructions: "x",
      input: [{ type: "text", text: "y" }],
      jsonMode: true,
    });
    // Some providers echo the key they rejected; the plugin must not get it through the error.
    rig.provider.fault({
      kind: "http_error",
      status: 401,
      message: `Incorrect API key provided: ${FAKE_KEY}`,
    });
    const failure = await ctx.llm
      .complete({ messages: [{ role: "user", content: "hi" }] })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toContain("Incorrect API key provided: sk-");
    // The key was really used: the provider demands it.
    expect(rig.provider.requests[0]!.headers.authorization).toBe(`Bearer ${FAKE_KEY}`);

    const strings = reachableStrings({
      ctx,
      complete,
      structured,
      failure,
      message: (failure as Error).message,
      stack: (failure as Error).stack,
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
    const { ctx, manager } = await loadCtxPlugin(rig, "redactor");
    const text = `key ${OTHER_KEY} and Bearer abcdefghijklmnop1234`;
    expect(await ctx.redact(text)).not.toContain(OTHER_KEY);
    rig.settings.set("security.redact_secrets", false);
    await waitFor(async () => (await ctx.redact(text)) === text, 5000, "the mirror to follow");
    expect(await ctx.redact(text)).toBe(text);
    const forced = await ctx.redact(text, { force: true });
    expect(forced).not.toContain(OTHER_KEY);
    expect(forced).not.toContain("abcdefghijklmnop1234");
    rig.settings.set("security.redact_secrets", true);
    await manager.close();
  });

  it("ctx.redact masks every known key shape (docs/contract.md §10)", async () => {
    const { ctx, manager } = await loadCtxPlugin(rig, "shapes");
    const secrets = {
      openrouter: "sk-or-v1-00000000000000000000000000000000fake",
      anthropic: "sk-ant-api03-0000000000000000000000fake",
      bearer: "Authorization: Bearer tok_0000000000000000fake",
      aws: "AKIA0000000000000000",
      pem: "-----BEGIN RSA PRIVATE KEY-----\nMIIBfakefakefake\n-----END RSA PRIVATE KEY-----",
      url: "https://ana:hunter2-fake@example.invalid/path",
    };
    for (const [kind, secret] of Object.entries(secrets)) {
      const masked = await ctx.redact(`before ${secret} after`);
      expect(masked, kind).toContain("before ");
      expect(masked, kind).toContain(" after");
      expect(masked, kind).not.toBe(`before ${secret} after`);
    }
    expect(await ctx.redact(secrets.url)).not.toContain("hunter2-fake");
    expect(await ctx.redact(secrets.pem)).not.toContain("MIIBfakefakefake");
    expect(await ctx.redact(secrets.bearer)).not.toContain("tok_0000000000000000fake");
    expect(await ctx.redact("nothing secret here")).toBe("nothing secret here");
    await manager.close();
  });
});
