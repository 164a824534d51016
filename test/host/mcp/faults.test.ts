/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results are read as plain JSON here. */
/**
 * Faults (docs/contract.md §13.2, issue 27's list): each ends in a clear status or error naming
 * what to fix, the app serving on, and every call ending.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { faultServer, nodeServer, startMcpRig, type McpRig } from "./support/mcp-rig.js";
import { tempHome, waitFor } from "../support/temp-home.js";

let rig: McpRig;
beforeAll(async () => {
  rig = await startMcpRig({ backoffStartMs: 100 });
}, 30_000);
afterAll(async () => rig?.dispose());

const script = faultServer("fault-server.mjs");
const chat = () => rig.host.mcp.chatTools;
const run = (name: string, args: unknown = {}, signal = new AbortController().signal) =>
  chat().run(
    {
      id: `c_${Math.random().toString(36).slice(2)}`,
      type: "function",
      function: { name, arguments: JSON.stringify(args) },
    },
    { sessionId: "s1", gatewaySessionKey: "test", signal },
  );

describe("MCP faults", () => {
  it("a command that does not exist: error naming it and the PATH searched", async () => {
    await rig.addServer("missing", { command: "hermes-no-such-command-xyz" });
    const server = await rig.waitStatus("missing", "error");
    expect(server.error).toMatch(/^command not found: hermes-no-such-command-xyz \(searched PATH .+\)/);
    expect((await rig.ok("host.info")).version).toBeTruthy();
  });

  it("a server that prints garbage on stdout still comes up; the garbage is logged, not fatal", async () => {
    await rig.addServer("garbage", nodeServer(script, ["garbage"], { approval: "never" }));
    const server = await rig.waitStatus("garbage", "ready");
    expect(server.tools.map((t: any) => t.name)).toContain("pid");
    const { text } = await rig.ok("mcp.log", { id: "garbage" });
    expect(text).toContain(`transport error: Unexpected token 'o', "not json at all" is not valid JSON`);
    expect(await run("mcp__garbage__pid")).toMatchObject({ status: "ok" });
  });

  it("a server that exits during initialize: error with its exit code and stderr tail", async () => {
    await rig.addServer("dies", nodeServer(script, ["exit-on-init"]));
    const server = await rig.waitStatus("dies", "error");
    expect(server.error).toContain("exited with code 3");
    expect(server.error).toContain("the settings file /nowhere/config.toml is missing");
    // Restarted with backoff: the restart count grows.
    await waitFor(async () => (await rig.server("dies")).restarts >= 1, 10_000, "a restart");
    await rig.ok("mcp.save", {
      id: "dies",
      server: { ...nodeServer(script, ["exit-on-init"]), enabled: false },
    });
    expect((await rig.server("dies")).status).toBe("disabled");
  });

  it("a server that never finishes initialize: timed out after connect_timeout", async () => {
    await rig.addServer("mute", nodeServer(script, ["silent"], { connect_timeout: 1 }));
    const server = await rig.waitStatus("mute", "error");
    expect(server.error).toBe("timed out after 1 s connecting");
  });

  it("a slow first start (an npx download) shows starting, and is ready within connect_timeout", async () => {
    rig.frames.length = 0;
    await rig.addServer("late", nodeServer(script, ["slow-start"], { connect_timeout: 30 }));
    await waitFor(async () => (await rig.server("late")).status === "starting", 5_000, "starting");
    const server = await rig.waitStatus("late", "ready");
    expect(server.restarts).toBe(0);
    const statuses = rig.events("mcp.status").filter((e) => e.id === "late");
    expect(statuses.map((e) => e.status)).toEqual(["starting", "ready"]);
  });

  it("a call that hangs ends at the server's timeout with a clear error", async () => {
    await rig.addServer("slow", nodeServer(script, [], { approval: "never", timeout: 1 }));
    await rig.waitStatus("slow", "ready");
    const result = await run("mcp__slow__hang");
    expect(result.status).toBe("error");
    expect(result.content).toMatch(/mcp__slow__hang timed out after 1 s; the call was cancelled/);
  });

  it("Stop cancels a running call at once", async () => {
    rig.frames.length = 0;
    const stop = new AbortController();
    const pending = run("mcp__slow__hang", {}, stop.signal);
    await waitFor(() => rig.events("mcp.tool.call").some((e) => e.tool === "hang" && e.state === "running"));
    stop.abort();
    expect((await pending).status).toBe("aborted");
    // The server heard notifications/cancelled.
    await waitFor(async () =>
      (await rig.ok("mcp.log", { id: "slow" })).text.includes("hang: cancelled by the client"),
    );
  });

  it("a crash mid-call: an error to the model, a restart, and the next call works", async () => {
    await rig.addServer("crashy", nodeServer(script, [], { approval: "never" }));
    await rig.waitStatus("crashy", "ready");
    const before = (await run("mcp__crashy__pid")).content;
    const crashed = await run("mcp__crashy__crash");
    expect(crashed.status).toBe("error");
    expect(crashed.content).toMatch(/stopped during the call/);
    const after = await run("mcp__crashy__pid");
    expect(after.status).toBe("ok");
    expect(after.content).not.toBe(before);
  });

  it("a 5 MB result is cut to 256 KB with a note; tag characters are stripped", async () => {
    const big = await run("mcp__crashy__big");
    expect(Buffer.byteLength(big.content)).toBeLessThan(257 * 1024);
    expect(big.content).toMatch(/\[The result was 5\.0 MB; it was cut to the first 256 KB\.\]$/);
    const tags = await run("mcp__crashy__tags");
    expect(tags.content).toBe("visible text");
  });

  it("arguments failing the schema never reach the server", async () => {
    const result = await run("mcp__crashy__env", { name: 42 });
    expect(result).toMatchObject({ status: "error" });
    expect(result.content).toContain("do not match its schema: name must be string");
  });

  it("refuses blocks with both command and url, an id with a space, an unknown key, naming each", async () => {
    const both = await rig.call("mcp.save", {
      id: "both",
      server: { command: "x", url: "https://x.example/mcp" },
    });
    expect(both.error).toMatchObject({ data: { reason: "invalid_params", key: "mcp_servers.both" } });
    expect(both.error!.message).toContain("has both command and url");
    const spaced = await rig.call("mcp.save", { id: "my server", server: { command: "x" } });
    expect(spaced.error).toMatchObject({ data: { reason: "invalid_params", key: "mcp_servers.my server" } });
    const unknown = await rig.call("mcp.save", { id: "odd", server: { command: "x", colour: "red" } });
    expect(unknown.error).toMatchObject({
      data: { reason: "invalid_params", key: "mcp_servers.odd.colour" },
    });
    expect((await rig.ok("mcp.list")).servers.map((s: any) => s.id)).not.toContain("odd");
  });
});

describe("a hand-written mcp_servers block the host refuses", () => {
  it("names each bad block in a notice; the good server runs, the app serves on, the file is kept", async () => {
    const home = tempHome("hermes-mcp-bad-config-");
    const yaml = [
      "mcp_servers:",
      "  good:",
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(script)}]`,
      "    approval: never",
      "  both:",
      "    command: x",
      "    url: https://x.example/mcp",
      '  "my server":',
      "    command: x",
      "  odd:",
      "    command: x",
      "    colour: red",
      "",
    ].join("\n");
    writeFileSync(join(home.dir, "config.yaml"), yaml);
    const bad = await startMcpRig({ home: home.dir });
    try {
      const info = await bad.ok("host.info");
      const notices = JSON.stringify(info.notices);
      expect(notices).toContain("mcp_servers.both has both command and url; keep one");
      expect(notices).toContain(
        "mcp_servers.my server is not a valid name here: it must be an MCP server id",
      );
      expect(notices).toContain("mcp_servers.odd.colour is not a known setting (allowed here: command,");
      await bad.waitStatus("good", "ready");
      const result = await bad.host.mcp.chatTools.run(
        { id: "c_good", type: "function", function: { name: "mcp__good__pid", arguments: "{}" } },
        { sessionId: "s1", gatewaySessionKey: "test", signal: new AbortController().signal },
      );
      expect(result.status).toBe("ok");
      expect(readFileSync(join(home.dir, "config.yaml"), "utf8")).toBe(yaml);
    } finally {
      await bad.dispose();
      home.cleanup();
    }
  }, 60_000);
});
