/**
 * The plugin host's start deadline (runtime/launch/plugin-host-process.ts) is the plugin host's to meet,
 * not this process's: a ready message that arrived while this process was itself busy past the
 * deadline counts. The child here is a stand-in whose messages come over a real local socket, so
 * the ready message is real I/O waiting to be read when the deadline's timer fires.
 */
import net from "node:net";
import os from "node:os";
import { once } from "node:events";
import { afterEach, expect, it } from "vitest";
import {
  PluginHostProcess,
  type PluginHostChild,
} from "../../../electron/host/plugins/runtime/launch/plugin-host-process.js";

const sockets: net.Socket[] = [];
let server: net.Server | null = null;
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
  server?.close();
  server = null;
});

/** A plugin host stand-in: what is written to `remote` reaches its `onMessage` listeners as I/O. */
async function standIn(): Promise<{ child: PluginHostChild; remote: net.Socket; killed: () => boolean }> {
  server = net.createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const accepted = once(server, "connection") as Promise<[net.Socket]>;
  const client = net.connect((server.address() as net.AddressInfo).port, "127.0.0.1");
  await once(client, "connect");
  const [remote] = await accepted;
  sockets.push(client, remote);
  let killed = false;
  const child: PluginHostChild = {
    pid: undefined,
    stderr: null,
    connected: true,
    send: () => undefined,
    kill: () => void (killed = true),
    onMessage: (listener) => void client.on("data", (data) => listener(JSON.parse(String(data)))),
    onExit: () => undefined,
    onError: () => undefined,
  };
  return { child, remote, killed: () => killed };
}

const start = (child: PluginHostChild) =>
  PluginHostProcess.start(
    {
      bundle: { entry: "plugin-host.js", dir: os.tmpdir() },
      readPaths: [],
      writePaths: [],
      readyTimeoutMs: 20,
      spawn: () => child,
    },
    { onMessage: () => undefined, onExit: () => undefined },
  );

/** Holds this process's event loop, as a long synchronous task does. */
function busyFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy
  }
}

it("a ready message waiting when the deadline fires is read first: this process's stall is not the plugin host's fault", async () => {
  const { child, remote, killed } = await standIn();
  const starting = start(child);
  remote.write(JSON.stringify({ kind: "ready" }));
  busyFor(200);
  await expect(starting).resolves.toBeInstanceOf(PluginHostProcess);
  expect(killed()).toBe(false);
});

it("a plugin host that never says it is ready is stopped at the deadline, with the reason", async () => {
  const { child, killed } = await standIn();
  await expect(start(child)).rejects.toThrow("The plugin host did not start within its deadline.");
  expect(killed()).toBe(true);
});
