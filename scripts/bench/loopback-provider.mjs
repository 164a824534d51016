// The benches' OpenAI-format provider: a loopback HTTP server that answers at once, run on its own
// thread. A real provider never shares the app's event loop, so work the host overlaps with the
// request in flight (writing the person's message) must not be serialized behind the server's
// own work, and neither side's timing includes the other's callbacks. Non-streamed requests get
// one "pong" completion; `stream: true` gets "Hello from the loopback server." in five chunks and
// a usage chunk.
import { Worker } from "node:worker_threads";

const serverSource = `
const { createServer } = require("node:http");
const { parentPort } = require("node:worker_threads");
const base = { id: "chatcmpl-bench", created: 1700000000, model: "bench/model" };
const usage = (completion) => ({ prompt_tokens: 3, completion_tokens: completion, total_tokens: 3 + completion });
const reply = JSON.stringify({
  ...base,
  object: "chat.completion",
  choices: [{ index: 0, message: { role: "assistant", content: "pong" }, finish_reason: "stop" }],
  usage: usage(1),
});
const chunk = (delta, finish = null, extra = {}) =>
  "data: " + JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }], ...extra }) + "\\n\\n";
const streamed =
  chunk({ role: "assistant", content: "Hello" }) +
  [" from", " the", " loopback", " server."].map((word) => chunk({ content: word })).join("") +
  chunk({}, "stop", { usage: usage(5) }) +
  "data: [DONE]\\n\\n";
const server = createServer((req, res) => {
  let body = "";
  req.on("data", (d) => (body += d));
  req.on("end", () => {
    if (body.includes('"stream":true')) {
      res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
      res.end(streamed);
    } else {
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(reply) });
      res.end(reply);
    }
  });
});
server.listen(0, "127.0.0.1", () => parentPort.postMessage(server.address().port));
parentPort.on("message", () => server.close(() => process.exit(0)));
`;

/** Starts the provider thread; resolves to its `baseURL` (for the SDK) and `close()`. */
export async function startLoopbackProvider() {
  const worker = new Worker(serverSource, { eval: true });
  const port = await new Promise((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    close: async () => {
      const exited = new Promise((resolve) => worker.once("exit", resolve));
      worker.postMessage("close");
      await exited;
    },
  };
}
