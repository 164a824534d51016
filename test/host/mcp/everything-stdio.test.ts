/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results are read as plain JSON here. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { everythingBin, nodeServer, startMcpRig, type McpRig } from "./support/mcp-rig.js";

let rig: McpRig;
beforeAll(async () => {
  rig = await startMcpRig();
  await rig.addServer("everything", nodeServer(everythingBin(), ["stdio"], { approval: "never" }));
  await rig.waitStatus("everything", "ready");
}, 60_000);
afterAll(async () => rig?.dispose());

describe("server-everything over stdio", () => {
  it("lists the server with its tools under qualified names, resources and prompts", async () => {
    const server = await rig.server("everything");
    expect(server).toMatchObject({ id: "everything", transport: "stdio", enabled: true, status: "ready" });
    expect(server.serverInfo.name).toBe("mcp-servers/everything");
    const echo = server.tools.find((t: any) => t.name === "echo");
    expect(echo).toMatchObject({
      qualifiedName: "mcp__everything__echo",
      enabled: true,
      readOnly: true,
      approval: "allow",
    });
    expect(server.tools.find((t: any) => t.name === "get-sum").qualifiedName).toBe(
      "mcp__everything__get_sum",
    );
    expect(server.resources).toBeGreaterThan(0);
    expect(server.prompts).toBeGreaterThan(0);
    expect(rig.events("mcp.status").map((e) => e.status)).toEqual(
      expect.arrayContaining(["starting", "ready"]),
    );
  });

  it("reads resources and prompts through the host", async () => {
    const { resources, templates } = await rig.ok("mcp.resources", { id: "everything" });
    expect(resources.length).toBeGreaterThan(0);
    expect(templates.length).toBeGreaterThan(0);
    const { contents } = await rig.ok("mcp.readResource", { id: "everything", uri: resources[0].uri });
    expect(contents[0].uri).toBe(resources[0].uri);
    const { prompts } = await rig.ok("mcp.prompts", { id: "everything" });
    const simple = prompts.find((p: any) => p.arguments.length === 0);
    const { messages } = await rig.ok("mcp.getPrompt", { id: "everything", name: simple.name });
    expect(messages.length).toBeGreaterThan(0);
  });

  it("keeps the server's stderr in logs/mcp/<id>.log for View log", async () => {
    const { text } = await rig.ok("mcp.log", { id: "everything" });
    expect(text).toContain("[hermes] starting (stdio)");
    expect(text).toContain("ready:");
  });
});
