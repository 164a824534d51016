/**
 * HTTP servers (docs/contract.md §13.2): server-everything over Streamable HTTP and SSE, the
 * session re-established after the server restarts, and 401 / 500 / HTML answers as errors that
 * say what to fix.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpRig, type McpRig } from "./support/mcp-rig.js";
import { startEverythingHttp, startFaultHttp, type RunningServer } from "./support/http-servers.js";

let rig: McpRig;
let http: RunningServer;
let sse: RunningServer;
let faults: Awaited<ReturnType<typeof startFaultHttp>>;
beforeAll(async () => {
  [rig, http, sse, faults] = await Promise.all([
    startMcpRig({ backoffStartMs: 100 }),
    startEverythingHttp("streamableHttp"),
    startEverythingHttp("sse"),
    startFaultHttp(),
  ]);
}, 60_000);
afterAll(async () => {
  await rig?.dispose();
  await Promise.all([http?.stop(), sse?.stop(), faults?.close()]);
});

const run = (name: string, args: unknown = {}) =>
  rig.host.mcp.chatTools.run(
    {
      id: `c_${Math.random().toString(36).slice(2)}`,
      type: "function",
      function: { name, arguments: JSON.stringify(args) },
    },
    { sessionId: "s1", gatewaySessionKey: "test", signal: new AbortController().signal },
  );

describe("HTTP MCP servers", () => {
  it("Streamable HTTP: ready, echo and get-sum through the chat path", async () => {
    await rig.addServer("remote", { url: `http://127.0.0.1:${http.port}/mcp`, approval: "never" });
    const server = await rig.waitStatus("remote", "ready");
    expect(server.transport).toBe("streamable_http");
    expect((await run("mcp__remote__echo", { message: "over http" })).content).toBe("Echo: over http");
    expect((await run("mcp__remote__get_sum", { a: 20, b: 22 })).content).toContain("42");
  });

  it("a restarted server: the next call starts a new session without any user action", async () => {
    const port = http.port;
    await http.stop();
    http = await startEverythingHttp("streamableHttp", port);
    const result = await run("mcp__remote__echo", { message: "after restart" });
    expect(result).toMatchObject({ status: "ok", content: "Echo: after restart" });
    const { text } = await rig.ok("mcp.log", { id: "remote" });
    expect(text).toContain("no longer knows this session");
  });

  it("legacy SSE transport", async () => {
    await rig.addServer("legacy", {
      url: `http://127.0.0.1:${sse.port}/sse`,
      transport: "sse",
      approval: "never",
    });
    const server = await rig.waitStatus("legacy", "ready");
    expect(server.transport).toBe("sse");
    expect((await run("mcp__legacy__echo", { message: "sse" })).content).toBe("Echo: sse");
  });

  it("401, 500 and an HTML page each give an error that says what to fix", async () => {
    await rig.addServer("locked", { url: faults.url("401") });
    await rig.addServer("broken", { url: faults.url("500") });
    await rig.addServer("website", { url: faults.url("html") });
    const locked = await rig.waitStatus("locked", "error");
    expect(locked.error).toMatch(
      new RegExp(`^HTTP 401 from ${faults.url("401").replace(/[/.]/g, "\\$&")}: sign in`),
    );
    const broken = await rig.waitStatus("broken", "error");
    expect(broken.error).toMatch(/^HTTP 500 from .*database exploded/);
    const website = await rig.waitStatus("website", "error");
    expect(website.error).toMatch(/answered with a web page, not MCP: check the URL/);
    expect((await rig.ok("host.info")).version).toBeTruthy();
  });
});
