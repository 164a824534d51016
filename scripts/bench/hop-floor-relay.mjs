// The relay process of hop-floor.mjs: what the plugin host does for one plugin (frames between
// the parent's IPC channel and one worker), with no plugin host code, no plugin and no ctx.
import { Worker } from "node:worker_threads";

// The worker: on `echo`, answers with its params at once (plugin_call's and rpc_roundtrip's hop);
// on `invoke`, makes one `llm.complete` call through the relay and answers with how long that call
// took as it saw it.
const workerSource = `
const { parentPort } = require("node:worker_threads");
let started = 0;
let invokeId = 0;
parentPort.on("message", (frame) => {
  if (frame.kind === "call" && frame.method === "echo") {
    parentPort.postMessage({ kind: "result", id: frame.id, ok: true, value: frame.params });
  } else if (frame.kind === "call") {
    invokeId = frame.id;
    started = performance.now();
    parentPort.postMessage({ kind: "call", id: 1, method: "llm.complete", params: frame.params });
  } else {
    parentPort.postMessage({ kind: "result", id: invokeId, ok: true, value: performance.now() - started });
  }
});
parentPort.postMessage({ kind: "ready" });
`;
const worker = new Worker(workerSource, {
  eval: true,
  env: {},
  resourceLimits: { maxOldGenerationSizeMb: 256 },
});
worker.on("message", (frame) => process.send({ kind: "frame", pluginId: "floor", frame }));
process.on("message", (message) => worker.postMessage(message.frame));
process.on("disconnect", () => process.exit(0));
