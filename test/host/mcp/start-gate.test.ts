/**
 * MCP servers start after the window is interactive (docs/contract.md §13.2): not with the host,
 * but at `host.interactive` (the renderer's word once its chat is usable), or at the fallback when
 * no window says so.
 */
import { afterEach, describe, expect, it } from "vitest";
import { requireSecretService, startTestHost, type TestHost } from "../support/test-host.js";
import { waitFor } from "../support/temp-home.js";
import { faultServer } from "./support/mcp-rig.js";

let t: TestHost | null = null;
afterEach(async () => {
  await t?.dispose();
  t = null;
});

async function hostWithServer(interactiveFallbackMs: number): Promise<TestHost> {
  requireSecretService();
  const host = await startTestHost({
    host: {
      bundledPluginsDir: null,
      interactiveFallbackMs,
      mcp: { pathValue: async () => process.env["PATH"] ?? "" },
    },
  });
  host.host.settings.update((doc) => {
    doc.mcp_servers = { faults: { command: process.execPath, args: [faultServer("fault-server.mjs")] } };
  });
  return host;
}

describe("when MCP servers start", () => {
  it("not before the window says it is interactive, then at once", async () => {
    t = await hostWithServer(60_000);
    await new Promise((r) => setTimeout(r, 1_500)); // past the host's warm-up
    expect(t.host.mcp.manager.ids()).toEqual([]);
    const reply = await t.call("host.interactive", {});
    expect(reply.error).toBeUndefined();
    expect(t.host.mcp.manager.ids()).toEqual(["faults"]);
    await waitFor(() => t!.host.mcp.manager.get("faults")?.status === "ready", 20_000, "faults ready");
    // Said again (another window): nothing more happens.
    expect((await t.call("host.interactive", {})).error).toBeUndefined();
  });

  it("by the fallback when no window says so", async () => {
    t = await hostWithServer(300);
    await waitFor(() => t!.host.mcp.manager.ids().length === 1, 5_000, "servers started by the fallback");
  });
});
