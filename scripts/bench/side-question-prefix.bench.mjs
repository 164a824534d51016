// side_question_prefix (docs/contract.md §7.3, SPEC §12): whether each side question's request
// starts with the turn's request, byte for byte, up to where it appends its message (the end of
// the turn's `messages`), so the provider's prompt cache holds. A real host (the built tree) runs
// person turns on a loopback OpenAI-compatible server that records raw request bodies; a granted
// plugin asks a side question after each reply. Floor: the turn's request (100 % of its bytes up to
// the append point). Target: 100 % on every turn, and nothing else changed (tools, settings).
import { createServer } from "node:http";
import { figure } from "./figure.mjs";
import { allLoaded, homeWithPlugins, loadHost, startHost } from "./plugin-host-rig.mjs";
import { prefixKept } from "./request-prefix.mjs";

const TURNS = 12;
const KEY = "sk-bench-0000000000000000000000000000";
const QUESTION = "Bench: what will the user most likely ask next?";

const chunk = (body) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "bench/model", ...body })}\n\n`;

function startServer(bodies) {
  const server = createServer((req, res) => {
    const parts = [];
    req.on("data", (part) => parts.push(part));
    req.on("end", () => {
      const raw = Buffer.concat(parts);
      bodies.push(raw);
      const body = JSON.parse(raw.toString("utf8"));
      const text = `Reply ${bodies.length}: ${"word ".repeat(20 + bodies.length)}`.trim();
      if (!body.stream) {
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(
          JSON.stringify({
            id: "c",
            object: "chat.completion",
            created: 1,
            model: "bench/model",
            choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
            usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
          }),
        );
        return;
      }
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.write(
        chunk({ choices: [{ index: 0, delta: { role: "assistant", content: text }, finish_reason: null }] }),
      );
      res.write(chunk({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }));
      res.write(chunk({ choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } }));
      res.end("data: [DONE]\n\n");
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

async function until(probe, what, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

export async function run() {
  const bodies = [];
  const server = await startServer(bodies);
  const baseURL = `http://127.0.0.1:${server.address().port}/v1`;
  const source = () => `export function register(ctx) {
    ctx.registerTool({ name: "lookup", description: "Looks a word up.", parameters: { type: "object", properties: { q: { type: "string" } } }, handler: () => "ok" });
    ctx.registerHook("post_llm_call", ({ sideQuestionToken }) => {
      if (sideQuestionToken) void ctx.sideQuestion(sideQuestionToken, ${JSON.stringify(QUESTION)});
    });
  }`;
  const { home, cleanup } = homeWithPlugins(1, source);
  const { capabilitiesHash } = await loadHost("plugins/capabilities/capabilities.js");
  const { writeFileSync } = await import("node:fs");
  const { join } = await import("node:path");
  writeFileSync(
    join(home, "plugins", "p0", "plugin.yaml"),
    "name: p0\nversion: 1.0.0\nmain: index.js\ncapabilities: [llm.side_question]\n",
  );
  const { host, vault } = await startHost(home);
  try {
    host.settings.update((doc) => {
      doc.providers = { bench: { name: "Bench", base_url: baseURL } };
      doc.model = { provider: "bench", model: "bench/model" };
      // The background review (every 10th turn by default) would put its own request in between.
      doc.memory = {
        note: "The user plans their week on Sundays and likes short answers.",
        nudge_interval: 0,
      };
      doc.plugins.entries = {
        p0: {
          granted_capabilities: ["llm.side_question"],
          capabilities_consent: {
            hash: capabilitiesHash(["llm.side_question"]),
            granted_at: "2026-11-29T10:00:00Z",
          },
        },
      };
    });
    await vault.setKey("bench", KEY);
    await allLoaded(host, 1);
    const call = async (method, params) => {
      const answer = await host.router.handle(
        { jsonrpc: "2.0", id: 1, method, params },
        { connectionId: "bench" },
      );
      if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
      return answer.result;
    };
    const { sessionId } = await call("session.create", { title: "Bench week" });
    const shares = [];
    let onlyAppended = true;
    // What the side question adds: exactly its one user message, after the turn's messages.
    const appended = Buffer.from(`,${JSON.stringify({ role: "user", content: QUESTION })}`);
    for (let turn = 0; turn < TURNS; turn++) {
      const start = bodies.length;
      await call("session.send", {
        sessionId,
        text: `Turn ${turn}: plan ${"more ".repeat(turn)}of my week.`,
      });
      await until(() => bodies.length >= start + 2, `turn ${turn}'s side question`);
      const [turnBody, sideBody] = bodies.slice(start, start + 2);
      if (!JSON.parse(sideBody.toString("utf8")).messages.at(-1).content.includes(QUESTION))
        throw new Error(`turn ${turn}: the second request is not the side question`);
      const parsed = JSON.parse(turnBody.toString("utf8"));
      if (parsed.messages[0].role !== "system" || !parsed.tools?.length)
        throw new Error(`turn ${turn}: the turn's request lacks the system prompt or the tools`);
      const kept = prefixKept(turnBody, sideBody, appended);
      onlyAppended &&= kept.onlyAppended;
      shares.push(kept.share);
      await host.sessions.idle(sessionId);
    }
    const worst = Math.min(...shares);
    const mean = shares.reduce((a, b) => a + b, 0) / shares.length;
    return [
      figure({
        name: "side_question_prefix",
        value: worst,
        unit: "%",
        floor: 100,
        target: { on: "value", min: 100 },
        also: [{ on: "only_appended", equals: true }],
        text:
          `each side question's request starts with ${worst.toFixed(2)} % of its turn's request bytes up to ` +
          `where it appends (worst of ${TURNS} turns, mean ${mean.toFixed(2)} %; floor: the turn's request, 100 %); ` +
          `${onlyAppended ? "nothing else changed" : "SOMETHING ELSE CHANGED (tools or settings after the messages)"}`,
        extra: { mean, turns: TURNS, only_appended: onlyAppended },
      }),
    ];
  } finally {
    await host.close();
    server.close();
    cleanup();
  }
}
