/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results are read as plain JSON here. */
/**
 * A canary secret set with mcp.setSecret, used in a real chat turn (docs/contract.md §13.1, #27's
 * "appears nowhere else"): the server gets it (its digest comes back through the tool), and it is
 * in no file of the data home (config.yaml, logs, the session store, plugin data), no event frame,
 * and nothing a plugin sees — a real plugin in its worker records every hook of the turn in its
 * log lines and its state.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSessionRig, type SessionRig } from "../sessions/support/session-rig.js";
import { tempHome, waitFor } from "../support/temp-home.js";
import { faultServer, nodeServer } from "./support/mcp-rig.js";

const CANARY = "canary-mcp-chat-secret-7d41a09be2c3";
const SPY = `
export function register(ctx) {
  let n = 0;
  for (const name of ["on_session_start", "pre_llm_call", "post_llm_call", "pre_tool_call", "post_tool_call", "pre_api_request", "post_api_request"]) {
    ctx.registerHook(name, (payload) => {
      ctx.log.info("hook " + name + " " + JSON.stringify(payload));
      ctx.state.set("seen_" + n++, JSON.parse(JSON.stringify({ name, payload })));
    });
  }
}
`;

let rig: SessionRig;
let home: { dir: string; cleanup(): void };
beforeAll(async () => {
  home = tempHome("hermes-mcp-canary-");
  const plugin = join(home.dir, "plugins", "spy");
  mkdirSync(plugin, { recursive: true });
  writeFileSync(
    join(plugin, "plugin.yaml"),
    "name: spy\nversion: 1.0.0\ndescription: Records every hook.\nmain: index.js\n",
  );
  writeFileSync(join(plugin, "index.js"), SPY);
  rig = await startSessionRig({
    home: home.dir,
    configure: (doc) => {
      doc.plugins = { enabled: ["spy"] };
      doc.mcp_servers = {
        envy: nodeServer(faultServer("fault-server.mjs"), [], { approval: "never" }),
      };
    },
  });
  rig.host.mcp.start();
  await waitFor(async () => (await rig.ok("mcp.list")).servers[0]?.status === "ready", 30_000, "envy ready");
  await waitFor(
    async () => (await rig.ok("plugins.list")).plugins.find((p: any) => p.id === "spy")?.status === "loaded",
    30_000,
    "the spy plugin loaded",
  );
}, 90_000);
afterAll(async () => {
  await rig?.dispose();
  home?.cleanup?.();
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe("an MCP secret in a chat turn", () => {
  it("reaches the server, and no file, frame or plugin hook", async () => {
    await rig.ok("mcp.setSecret", { id: "envy", kind: "env", name: "CANARY_SECRET", value: CANARY });
    const digest = createHash("sha256").update(CANARY).digest("hex");
    // Setting it restarts the server with it; the digest says when it arrived.
    await waitFor(
      async () => {
        const { servers } = await rig.ok("mcp.list");
        return servers[0]?.status === "ready" && servers[0].config.secret_env?.includes("CANARY_SECRET");
      },
      20_000,
      "envy restarted with its secret",
    );
    rig.main.enqueue(
      {
        kind: "tool_calls",
        toolCalls: [{ id: "c1", name: "mcp__envy__env_digest", arguments: { name: "CANARY_SECRET" } }],
      },
      "Done.",
    );
    const { sessionId } = await rig.ok("session.create", { title: "Canary" });
    await rig.ok("session.send", { sessionId, text: "Check the secret" });
    await rig.idle(sessionId);
    const { messages } = await rig.ok("session.messages", { sessionId });
    expect(messages.find((m: any) => m.role === "tool").content).toBe(digest);

    // The plugin saw the MCP call (so its silence about the secret means something): pre_tool_call,
    // post_tool_call with the tool's result (§5.3 "after a tool ran", MCP tools too), every other hook.
    await waitFor(
      () => {
        rig.host.log.flush();
        const log = readFileSync(join(home.dir, "logs", "agent.log"), "utf8");
        return (
          /hook pre_tool_call .*mcp__envy__env_digest/.test(log) &&
          new RegExp(`hook post_tool_call .*mcp__envy__env_digest.*${digest}`).test(log) &&
          log.includes("hook post_llm_call")
        );
      },
      10_000,
      "the spy's hooks of the turn",
    );
    const files = filesUnder(home.dir).map((path) => ({ path, text: readFileSync(path, "utf8") }));
    // What is searched holds the turn: the spy's state and the session store with the tool's result.
    expect(
      files.some((f) => f.path.includes("plugin-data") && f.text.includes("mcp__envy__env_digest")),
    ).toBe(true);
    expect(files.some((f) => /sessions|store/.test(f.path) && f.text.includes(digest))).toBe(true);
    for (const file of files) expect(file.text, file.path).not.toContain(CANARY);
    expect(JSON.stringify(rig.frames)).not.toContain(CANARY);
  }, 60_000);
});
