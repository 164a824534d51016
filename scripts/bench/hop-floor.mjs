// The floor of a `ctx.llm` call through the plugin runtime's hops on this machine: a bare relay
// process (scripts/bench/hop-floor-relay.mjs, started like the plugin host: `fork`, JSON IPC,
// Node's permission model) with one bare worker. The parent asks the worker to "invoke"; the worker
// makes one model call back through the relay, which the parent answers with the real SDK call,
// and the worker answers the invoke. Same hops, same frame shapes as the runtime, no app code.
import { fork } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadHost } from "./plugin-host-rig.mjs";

const here = dirname(fileURLToPath(import.meta.url));
// The permission model's switch as the product picks it for this Node (`--permission` from 22.13
// and 23.5, `--experimental-permission` before).
const { permissionFlag } = await loadHost("plugins/runtime/launch/plugin-host-process.js");
export const hopFloorPermission = permissionFlag();

/** `complete(params)` is the model call the parent makes for the worker (the bare SDK). */
export async function startHopFloor(complete = async () => null) {
  const child = fork(join(here, "hop-floor-relay.mjs"), [], {
    execArgv: [hopFloorPermission, `--allow-fs-read=${here}/`, "--allow-worker", "--no-warnings"],
    env: {},
    serialization: "json",
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  let nextId = 1;
  const pending = new Map();
  let ready;
  const up = new Promise((resolve) => (ready = resolve));
  child.on("message", async ({ frame }) => {
    if (frame.kind === "ready") return ready();
    if (frame.kind === "call") {
      const value = await complete(frame.params);
      child.send({
        kind: "frame",
        pluginId: "floor",
        frame: { kind: "result", id: frame.id, ok: true, value },
      });
      return;
    }
    pending.get(frame.id)?.(frame.value);
    pending.delete(frame.id);
  });
  await up;
  /** One invoke round trip; resolves to the model call's time as the worker saw it (ms). */
  const invoke = (params) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      child.send({ kind: "frame", pluginId: "floor", frame: { kind: "call", id, method: "invoke", params } });
    });
  /** One bare hop there and back: the worker answers with `params` at once. */
  const echo = (params) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      child.send({ kind: "frame", pluginId: "floor", frame: { kind: "call", id, method: "echo", params } });
    });
  return { invoke, echo, close: () => child.kill() };
}
