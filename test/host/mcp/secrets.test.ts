/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results are read as plain JSON here. */
/**
 * A secret set with mcp.setSecret reaches the server's environment and appears nowhere else
 * (config.yaml, logs, event frames, mcp.list); the host's own environment (web token, a
 * provider's key_env) never reaches a server (docs/contract.md §13.1, §13.2).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { faultServer, nodeServer, startMcpRig, type McpRig } from "./support/mcp-rig.js";
import { waitFor } from "../support/temp-home.js";

const CANARY = "canary-mcp-secret-9f3b2c71d4e5";
const WEB_TOKEN = "web-token-canary-0123456789abcdef0123456789";
const PROVIDER_KEY = "sk-canary-provider-key-00000000000000000000";

let rig: McpRig;
beforeAll(async () => {
  process.env["HERMES_DESKTOP_WEB_TOKEN"] = WEB_TOKEN;
  process.env["HERMES_TEST_CANARY_PROVIDER_KEY"] = PROVIDER_KEY;
  rig = await startMcpRig();
  rig.host.settings.update((doc) => {
    doc.providers = {
      canary: {
        name: "Canary",
        base_url: "http://127.0.0.1:9/v1",
        key_env: "HERMES_TEST_CANARY_PROVIDER_KEY",
      },
    };
  });
  await rig.addServer(
    "envy",
    nodeServer(faultServer("fault-server.mjs"), [], {
      approval: "never",
      env: { PLAIN: "${userHome}/notes" },
    }),
  );
  await rig.waitStatus("envy", "ready");
}, 30_000);
afterAll(async () => {
  delete process.env["HERMES_DESKTOP_WEB_TOKEN"];
  delete process.env["HERMES_TEST_CANARY_PROVIDER_KEY"];
  await rig?.dispose();
});

const envOf = async (name: string) =>
  (
    await rig.host.mcp.chatTools.run(
      {
        id: `c_${name}_${Date.now()}`,
        type: "function",
        function: { name: "mcp__envy__env", arguments: JSON.stringify({ name }) },
      },
      { sessionId: "s1", gatewaySessionKey: "test", signal: new AbortController().signal },
    )
  ).content;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe("MCP secrets", () => {
  it("a secret_env value from the keychain reaches the server, and nothing else of the host's environment does", async () => {
    const answer = await rig.ok("mcp.setSecret", {
      id: "envy",
      kind: "env",
      name: "CANARY_SECRET",
      value: CANARY,
    });
    expect(answer).toEqual({ hasValue: true, keyHint: CANARY.slice(-4) });
    // Listing the name restarts the server with it.
    await waitFor(
      async () => (await envOf("CANARY_SECRET")) === CANARY,
      20_000,
      "the secret in the server's env",
    );
    expect(await envOf("PLAIN")).toMatch(/\/notes$/);
    expect(await envOf("HERMES_DESKTOP_WEB_TOKEN")).toBe("(unset)");
    expect(await envOf("HERMES_TEST_CANARY_PROVIDER_KEY")).toBe("(unset)");
    expect(await envOf("HOME")).toBe(process.env["HOME"]);
  });

  it("appears nowhere else: config.yaml, logs, event frames, mcp.list", async () => {
    const { servers } = await rig.ok("mcp.list");
    const envy = servers.find((s: any) => s.id === "envy");
    expect(envy.secrets.env).toEqual([{ name: "CANARY_SECRET", hasValue: true, keyHint: CANARY.slice(-4) }]);
    expect(envy.config.secret_env).toEqual(["CANARY_SECRET"]);
    expect(JSON.stringify(servers)).not.toContain(CANARY);
    const config = readFileSync(join(rig.home, "config.yaml"), "utf8");
    expect(config).toContain("CANARY_SECRET");
    expect(config).not.toContain(CANARY);
    rig.host.log.flush();
    for (const file of filesUnder(join(rig.home, "logs")))
      expect(readFileSync(file, "utf8")).not.toContain(CANARY);
    expect(JSON.stringify(rig.frames)).not.toContain(CANARY);
    expect((await rig.ok("mcp.log", { id: "envy" })).text).not.toContain(CANARY);
  });

  it("an empty value deletes the secret and unlists its name", async () => {
    expect(
      await rig.ok("mcp.setSecret", { id: "envy", kind: "env", name: "CANARY_SECRET", value: "" }),
    ).toEqual({
      hasValue: false,
      keyHint: null,
    });
    expect((await rig.server("envy")).config.secret_env).toBeUndefined();
    const bad = await rig.call("mcp.setSecret", { id: "envy", kind: "env", name: "NOT VALID", value: "x" });
    expect(bad.error?.data).toMatchObject({ reason: "invalid_params", key: "name" });
    const missing = await rig.call("mcp.setSecret", { id: "nobody", kind: "env", name: "X", value: "x" });
    expect(missing.error?.data.reason).toBe("not_found");
  });
});
