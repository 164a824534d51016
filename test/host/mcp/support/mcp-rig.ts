/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results and event payloads are read as plain JSON here. */
/**
 * A real host for MCP tests: the keychain vault under a per-test service, every event frame
 * recorded, and the real MCP servers from node_modules (server-everything, server-filesystem) or
 * the fault servers of test/fixtures/mcp run with this Node.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { McpServerDocument } from "../../../../electron/host/config/config-schema.js";
import type { EventFrame } from "../../../../electron/host/rpc/frames.js";
import { requireSecretService, startTestHost, type TestHost } from "../../support/test-host.js";
import { waitFor } from "../../support/temp-home.js";

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));

/** A package's bin file, resolved from its package.json (run with `node <bin>`). */
export function binOf(pkg: string): string {
  const manifest = require.resolve(`${pkg}/package.json`);
  const { bin } = require(manifest) as { bin: Record<string, string> };
  return join(dirname(manifest), Object.values(bin)[0]!);
}

export const everythingBin = () => binOf("@modelcontextprotocol/server-everything");
export const filesystemBin = () => binOf("@modelcontextprotocol/server-filesystem");
export const faultServer = (name: string) => join(here, "..", "..", "..", "fixtures", "mcp", name);

/** A stdio block running a script with this Node. */
export const nodeServer = (
  script: string,
  args: string[] = [],
  extra: McpServerDocument = {},
): McpServerDocument => ({
  command: process.execPath,
  args: [script, ...args],
  ...extra,
});

export interface McpRig extends TestHost {
  frames: EventFrame["params"][];
  ok<T = any>(method: string, params?: unknown): Promise<T>;
  events(type: string): any[];
  addServer(id: string, block: McpServerDocument): Promise<void>;
  server(id: string): Promise<any>;
  waitStatus(id: string, status: string, timeoutMs?: number): Promise<any>;
}

export async function startMcpRig(
  opts: {
    /** A data home prepared beforehand (a config.yaml written by hand); a fresh one by default. */
    home?: string;
    env?: Record<string, string | undefined>;
    backoffStartMs?: number;
    /** The desktop's system browser (OAuth sign-in); web mode (none) by default. */
    openExternal?: (url: string) => Promise<void>;
    /** How long an OAuth sign-in waits for the browser (5 minutes by default). */
    signInTimeoutMs?: number;
  } = {},
): Promise<McpRig> {
  requireSecretService();
  const frames: EventFrame["params"][] = [];
  const t = await startTestHost({
    ...(opts.home ? { home: opts.home } : {}),
    ...(opts.env ? { env: opts.env } : {}),
    host: {
      bundledPluginsDir: null,
      ...(opts.openExternal ? { openExternal: opts.openExternal } : {}),
      mcp: {
        pathValue: async () => process.env["PATH"] ?? "",
        backoffStartMs: opts.backoffStartMs ?? 200,
        ...(opts.signInTimeoutMs !== undefined ? { signInTimeoutMs: opts.signInTimeoutMs } : {}),
      },
    },
  });
  t.host.events.subscribe((frame) => frames.push(frame.params));
  t.host.mcp.start();
  const rig: McpRig = {
    ...t,
    frames,
    async ok(method, params = {}) {
      const reply = await t.call(method, params);
      if (reply.error)
        throw new Error(`${method} failed: ${reply.error.message} (${reply.error.data.reason})`);
      return reply.result as any;
    },
    events: (type) => frames.filter((f) => f.type === type).map((f) => f.payload),
    async addServer(id, block) {
      await rig.ok("mcp.save", { id, server: block });
    },
    async server(id) {
      const { servers } = await rig.ok("mcp.list");
      return servers.find((s: any) => s.id === id);
    },
    waitStatus: (id, status, timeoutMs = 30_000) =>
      waitFor(
        async () => {
          const server = await rig.server(id);
          return server?.status === status ? server : null;
        },
        timeoutMs,
        `MCP server ${id} to be ${status}`,
      ),
  };
  return rig;
}
