/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results are read as plain JSON here. */
/** Settings → MCP's methods (docs/contract.md §13.5): import, per-tool switches, restart, remove. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { everythingBin, startMcpRig, type McpRig } from "./support/mcp-rig.js";
import { waitFor } from "../support/temp-home.js";

let rig: McpRig;
beforeAll(async () => {
  rig = await startMcpRig();
}, 30_000);
afterAll(async () => rig?.dispose());

const config = () => parse(readFileSync(join(rig.home, "config.yaml"), "utf8"));

describe("mcp.* settings methods", () => {
  it("imports Claude Desktop JSON: secret-looking env values go to the keychain, existing ids are skipped", async () => {
    const json = JSON.stringify({
      mcpServers: {
        Everything: {
          command: process.execPath,
          args: [everythingBin(), "stdio"],
          env: { API_KEY: "sk-imported-secret-abcd", MODE: "demo" },
        },
      },
    });
    expect(await rig.ok("mcp.import", { json })).toEqual({ added: ["everything"], skipped: [] });
    const block = config().mcp_servers.everything;
    expect(block.env).toEqual({ MODE: "demo" });
    expect(block.secret_env).toEqual(["API_KEY"]);
    expect(readFileSync(join(rig.home, "config.yaml"), "utf8")).not.toContain("sk-imported-secret-abcd");
    expect(await rig.vault.getKey("mcp", "everything:env:API_KEY")).toBe("sk-imported-secret-abcd");
    const server = await rig.waitStatus("everything", "ready");
    expect(server.secrets.env).toEqual([{ name: "API_KEY", hasValue: true, keyHint: "abcd" }]);
    const again = await rig.ok("mcp.import", { json });
    expect(again).toEqual({
      added: [],
      skipped: [{ id: "everything", reason: 'a server with the id "everything" already exists' }],
    });
    const bad = await rig.call("mcp.import", { json: "not json" });
    expect(bad.error?.data).toMatchObject({ reason: "invalid_params", key: "json" });
  });

  it("per tool: off goes to tools.exclude, Always allow to always_allow, without restarting the server", async () => {
    const before = (await rig.server("everything")).restarts;
    const { server } = await rig.ok("mcp.setTool", { id: "everything", tool: "echo", enabled: false });
    expect(server.tools.find((t: any) => t.name === "echo").enabled).toBe(false);
    expect(config().mcp_servers.everything.tools).toEqual({ exclude: ["echo"] });
    expect(rig.host.mcp.chatTools.definitions().map((d) => d.function.name)).not.toContain(
      "mcp__everything__echo",
    );
    await rig.ok("mcp.setTool", { id: "everything", tool: "echo", enabled: true, approval: "allow" });
    expect(config().mcp_servers.everything.always_allow).toEqual(["echo"]);
    const echo = (await rig.server("everything")).tools.find((t: any) => t.name === "echo");
    expect(echo).toMatchObject({ enabled: true, approval: "allow" });
    expect((await rig.server("everything")).status).toBe("ready");
    expect((await rig.server("everything")).restarts).toBe(before);
  });

  it("restart starts it again; remove stops it and deletes its secrets", async () => {
    rig.frames.length = 0;
    await rig.ok("mcp.restart", { id: "everything" });
    await rig.waitStatus("everything", "ready");
    expect(rig.events("mcp.status").map((e) => e.status)).toEqual(
      expect.arrayContaining(["starting", "ready"]),
    );
    await rig.ok("mcp.remove", { id: "everything" });
    expect((await rig.ok("mcp.list")).servers).toEqual([]);
    expect(config().mcp_servers).toEqual({});
    await waitFor(async () => (await rig.vault.getKey("mcp", "everything:env:API_KEY")) === null);
    for (const method of ["mcp.remove", "mcp.restart", "mcp.log", "mcp.resources"]) {
      const missing = await rig.call(method, { id: "everything" });
      expect(missing.error?.data.reason, method).toBe("not_found");
    }
    const unknown = await rig.call("mcp.approve", { requestId: "nope", decision: "once" });
    expect(unknown.error?.data.reason).toBe("not_found");
  });
});
