/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results and event payloads are read as plain JSON here. */
/**
 * Load (issue 32): one real host with PLUGINS plugins loaded runs JOBS plugin RPC jobs at once (the
 * documented pattern: answer `{job}`, call ctx.llm, deliver the result as a session event) while
 * SESSIONS chats stream their replies at once, and a client asks `host.info` back to back the whole
 * time (each call timed from when it was due, so a blocked event loop counts). The provider runs in
 * its own process (the fake provider's CLI), as a real one would: its work is not the host's.
 * Everything must complete; host.info's latency is measured and written to
 * HERMES_STRESS_REPORT, judged (p99 < 100 ms) only by `npm run test:stress`, never here.
 * `npm test` runs a small slice: 5 plugins, 10 jobs, 4 chats.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAIN_KEY, startStressRig, type StressRig } from "./support/stress-rig.js";

const STRESS = process.env.HERMES_STRESS === "1";
const PLUGINS = STRESS ? 50 : 5;
const JOBS = STRESS ? 100 : 10;
const SESSIONS = STRESS ? 20 : 4;
/** Words per streamed reply, and how fast they come: every stream overlaps the others. */
const REPLY_WORDS = 200;
const WORDS_PER_SECOND = 100;

const jobPlugin = `
let jobs = 0;
export function register(ctx) {
  ctx.registerRpc("job", (params, context) => {
    const job = ++jobs;
    ctx.llm.complete({ messages: [{ role: "user", content: params.prompt }] }).then(
      (r) => ctx.emitToSession(context.sessionId, "job.done", { job, text: r.text }),
      (e) => ctx.emitToSession(context.sessionId, "job.done", { job, error: e.message }),
    );
    return { job };
  });
}`;

/** A chat's message: the echo that answers it is REPLY_WORDS words long. */
const streamText = (i: number) =>
  [`stream${i}`, ...Array.from({ length: REPLY_WORDS - 2 }, (_, w) => `w${w}`)].join(" ");

const ids = Array.from({ length: PLUGINS }, (_, i) => `load-${String(i).padStart(2, "0")}`);
let rig: StressRig;
let provider: ChildProcess;

/** The fake provider in a child process, echoing at WORDS_PER_SECOND; its base URL. */
async function startProviderProcess(): Promise<string> {
  provider = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "test/fixtures/fake-provider-cli.ts",
      "--api-key",
      MAIN_KEY,
      "--tokens-per-second",
      String(WORDS_PER_SECOND),
    ],
    { cwd: process.cwd(), stdio: ["ignore", "pipe", "inherit"] },
  );
  const [line] = (await once(createInterface({ input: provider.stdout! }), "line")) as [string];
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+\/v1)$/.exec(line)?.[1];
  if (!url) throw new Error(`the fake provider process said: ${line}`);
  return url;
}

beforeAll(async () => {
  const baseURL = await startProviderProcess();
  rig = await startStressRig({
    plugins: ids.map((id) => ({ id, source: jobPlugin })),
    configure: (doc) => void (doc.providers!.main!.base_url = baseURL),
  });
}, 180_000);

afterAll(async () => {
  await rig?.dispose();
  if (provider && provider.exitCode === null) {
    provider.kill("SIGTERM");
    await once(provider, "exit");
  }
});

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/** A client asks host.info every INFO_EVERY_MS. */
const INFO_EVERY_MS = 10;

/**
 * host.info every INFO_EVERY_MS until `done()`; each call's milliseconds from when it was due
 * (not from when the busy event loop got round to sending it), so a stall counts for every call
 * that waited through it.
 */
async function infoLatencies(done: () => boolean): Promise<number[]> {
  const out: number[] = [];
  const start = performance.now();
  for (let k = 0; !done(); k++) {
    const due = start + k * INFO_EVERY_MS;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const reply = await rig.call("host.info", {});
    out.push(performance.now() - due);
    if (reply.error) throw new Error(`host.info failed: ${reply.error.message}`);
  }
  return out;
}

describe("load", () => {
  it(`${PLUGINS} plugins loaded, ${JOBS} RPC jobs and ${SESSIONS} streaming chats at once: all complete, host.info answers throughout`, async () => {
    const statuses = rig.host.plugins.list().map((p) => `${p.id}:${p.status}:${p.error ?? ""}`);
    expect(
      statuses.filter((s) => !s.includes(":loaded:")),
      statuses.slice(0, 3).join(" | "),
    ).toEqual([]);
    expect(statuses).toHaveLength(PLUGINS);
    const idleUntil = performance.now() + 1_000;
    const unloaded = await infoLatencies(() => performance.now() >= idleUntil);

    const sessions: string[] = [];
    for (let i = 0; i < SESSIONS; i++) sessions.push((await rig.ok("session.create", {})).sessionId);
    const { sessionId: jobSession } = await rig.ok("session.create", {});
    const jobResults: any[] = [];
    const jobsDone = new Promise<void>((resolve) => {
      rig.host.events.subscribe((frame) => {
        const { type, payload } = frame.params;
        if (type.endsWith(".job.done") && type.startsWith("plugin.load-")) {
          jobResults.push(payload);
          if (jobResults.length === JOBS) resolve();
        }
      });
    });
    const turns = sessions.map(
      (sessionId) =>
        rig.nextEvent("session.turn.finished", (_p, s) => s === sessionId, 120_000) as Promise<any>,
    );

    let finished = false;
    const started = performance.now();
    const during = infoLatencies(() => finished);
    // Each request in its own macrotask, as a client's messages arrive on a socket.
    const arrive = <T>(send: () => Promise<T>) =>
      new Promise<T>((resolve, reject) => setImmediate(() => send().then(resolve, reject)));
    const [sent, started_jobs] = await Promise.all([
      Promise.all(
        sessions.map((sessionId, i) =>
          arrive(() => rig.ok("session.send", { sessionId, text: streamText(i) })),
        ),
      ),
      Promise.all(
        Array.from({ length: JOBS }, (_, i) =>
          arrive(() =>
            rig.ok(`plugin.${ids[i % PLUGINS]}.job`, { session_id: jobSession, prompt: `job ${i}` }),
          ),
        ),
      ),
    ]);
    expect(sent.every((s: any) => s.disposition === "started")).toBe(true);
    expect(started_jobs.every((j: any) => typeof j.job === "number")).toBe(true);
    const finishedTurns = await Promise.all(turns);
    await jobsDone;
    const tookMs = performance.now() - started;
    finished = true;
    const loaded = (await during).sort((a, b) => a - b);

    expect(finishedTurns.map((t) => t.status)).toEqual(sessions.map(() => "ok"));
    expect(jobResults.filter((j) => j.error)).toEqual([]);
    expect(new Set(jobResults.map((j) => j.text))).toEqual(
      new Set(Array.from({ length: JOBS }, (_, i) => `Echo: job ${i}`)),
    );
    for (const sessionId of sessions) {
      const { messages } = await rig.ok("session.messages", { sessionId });
      expect(messages.at(-1)).toMatchObject({ role: "assistant", status: "complete" });
      expect(messages.at(-1).content).toBe(`Echo: ${messages.at(-2).content}`);
      expect(messages.at(-1).content.split(" ")).toHaveLength(REPLY_WORDS);
    }
    expect(loaded.length).toBeGreaterThan(0);

    const sortedUnloaded = unloaded.sort((a, b) => a - b);
    if (process.env.HERMES_STRESS_REPORT) {
      fs.mkdirSync(path.dirname(process.env.HERMES_STRESS_REPORT), { recursive: true });
      fs.writeFileSync(
        process.env.HERMES_STRESS_REPORT,
        JSON.stringify({
          plugins: PLUGINS,
          jobs: JOBS,
          sessions: SESSIONS,
          replyWords: REPLY_WORDS,
          jobsCompleted: jobResults.length,
          turnsCompleted: finishedTurns.filter((t) => t.status === "ok").length,
          tookMs,
          info: {
            unloaded: {
              calls: sortedUnloaded.length,
              p50: quantile(sortedUnloaded, 0.5),
              p99: quantile(sortedUnloaded, 0.99),
            },
            loaded: {
              calls: loaded.length,
              p50: quantile(loaded, 0.5),
              p99: quantile(loaded, 0.99),
              max: loaded.at(-1),
            },
          },
        }),
      );
    }
  }, 300_000);
});
