/**
 * Soak (issue 32): TURNS turns across SESSIONS chats in one real host, on the system clock (tokens
 * and timers age as in use) — every fourth turn calls a
 * plugin tool, every tenth is followed by a side question — against the fake provider answering
 * at once. Every SAMPLE_EVERY turns it samples the host process's resident memory and heap, the
 * process's active handles (by type), the event hub's listeners and the SQLite statements prepared
 * since the last sample (after a full garbage collection, with the fake providers' request records
 * cleared: they live in this process too); they go to HERMES_STRESS_REPORT, and `npm run test:stress` judges them:
 * resident memory grows < 10 % after the first 1,000 turns, and no count creeps upward.
 * `npm test` runs 200 turns across 10 chats and judges nothing but that every turn completed.
 */
import fs from "node:fs";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionStoreFile } from "../../../electron/host/sessions/store/store-file.js";
import { startStressRig, type StressRig } from "./support/stress-rig.js";

const STRESS = process.env.HERMES_STRESS === "1";
const TURNS = STRESS ? 10_000 : 200;
const SESSIONS = STRESS ? 200 : 10;
const SAMPLE_EVERY = STRESS ? 500 : 50;
/** How long the host rests after the run before the last two samples (V8's memory reducer acts after ~8 s idle). */
const IDLE_MS = STRESS ? 20_000 : 0;
/** Chats driven at once (each lane owns its chats, one turn at a time in each). */
const LANES = 10;

const probeSource = `
const tokens = new Map();
export function register(ctx) {
  ctx.registerTool({ name: "soak_lookup", description: "Looks a number up.",
    parameters: { type: "object", properties: { n: { type: "number" } } },
    handler: (args) => "looked up " + args.n });
  ctx.registerHook("post_llm_call", (p) => { tokens.set(p.sessionId, p.sideQuestionToken); });
  ctx.registerCommand({ name: "soak-ask", handler: async (raw) => {
    const { sessionId } = JSON.parse(raw);
    const token = tokens.get(sessionId) ?? null;
    tokens.delete(sessionId);
    return JSON.stringify({ answer: await ctx.sideQuestion(token, "And in one word?") });
  }});
}`;

let rig: StressRig;
let prepared = 0;
/** Every connection that prepared a statement (the session store's among them): their cache bounds are summed. */
const connections = new Set<Database.Database>();
const realPrepare = Database.prototype.prepare;

beforeAll(async () => {
  Database.prototype.prepare = function (this: Database.Database, ...args: [string]) {
    prepared += 1;
    connections.add(this);
    return realPrepare.apply(this, args);
  } as typeof realPrepare;
  rig = await startStressRig({
    plugins: [{ id: "soak", source: probeSource, capabilities: ["llm.side_question"] }],
    realClock: true,
    defaultReply: (view) => {
      const last = view.body.messages.at(-1) as { role?: string } | undefined;
      const tool = /^use tool (\d+)/.exec(view.lastUserText);
      if (tool && last?.role === "user")
        return {
          kind: "tool_calls",
          toolCalls: [{ name: "soak_lookup", arguments: { n: Number(tool[1]) } }],
        };
      return { kind: "text", content: `Echo: ${view.lastUserText.slice(0, 60)}` };
    },
  });
}, 60_000);

afterAll(async () => {
  Database.prototype.prepare = realPrepare;
  await rig?.dispose();
});

interface Sample {
  turns: number;
  rssMb: number;
  heapMb: number;
  /** Where resident memory is, so a regression names its source (see `memoryBreakdown`). */
  memory: MemoryBreakdown;
  pluginHostRssMb: number | null;
  handles: Record<string, number>;
  eventListeners: number;
  statementsPrepared: number;
}

function rssOf(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

/** Megabytes of each place resident memory can be, after a full collection. */
interface MemoryBreakdown {
  /** V8's heap: what is live, and what it holds from the system (committed). */
  heapUsed: number;
  heapCommitted: number;
  /** The committed heap by V8 space (new_space, old_space, large_object_space…): which one holds pages it does not use. */
  heapSpaces: Record<string, { used: number; committed: number }>;
  /** Memory V8 allocated itself outside the heap (compilers' zones). */
  v8Malloced: number;
  /** Buffers and other memory outside the heap that JS objects own; arrayBuffers is the part in ArrayBuffers. */
  external: number;
  arrayBuffers: number;
  /** The kernel's split of resident memory: anonymous (malloc, heaps, stacks) and file-backed (code, mmaps). */
  rssAnon: number;
  rssFile: number;
  /** Threads in the process (each worker thread has its own heap and stack). */
  threads: number;
  /** The session store's page cache bound (SQLite's cache_size) and its write-ahead log on disk. */
  sqliteCacheBound: number;
  sqliteWal: number;
  /** Open SQLite connections (each has its own cache). */
  sqliteConnections: number;
}

const MB = 1024 * 1024;

function statusField(status: string, field: string): number {
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
}

function memoryBreakdown(): MemoryBreakdown {
  const usage = process.memoryUsage();
  const heap = v8.getHeapStatistics();
  const status = fs.readFileSync("/proc/self/status", "utf8");
  const store = sessionStoreFile(rig.home);
  let cacheBound = 0;
  let open = 0;
  for (const db of connections) {
    if (!db.open) {
      connections.delete(db);
      continue;
    }
    open += 1;
    // Through the real prepare: the sample's own statements are not the host's.
    const pragma = (name: string) => Number(realPrepare.call(db, `PRAGMA ${name}`).pluck().get());
    const cacheSize = pragma("cache_size");
    // Negative cache_size is in KiB, positive in pages.
    cacheBound += cacheSize < 0 ? -cacheSize * 1024 : cacheSize * pragma("page_size");
  }
  let wal = 0;
  try {
    wal = fs.statSync(`${store}-wal`).size;
  } catch {
    // No log right after a checkpoint that truncated it.
  }
  return {
    heapUsed: usage.heapUsed / MB,
    heapCommitted: usage.heapTotal / MB,
    heapSpaces: Object.fromEntries(
      v8
        .getHeapSpaceStatistics()
        .map((space) => [
          space.space_name,
          { used: space.space_used_size / MB, committed: space.physical_space_size / MB },
        ]),
    ),
    v8Malloced: heap.malloced_memory / MB,
    external: usage.external / MB,
    arrayBuffers: usage.arrayBuffers / MB,
    rssAnon: statusField(status, "RssAnon") / 1024,
    rssFile: statusField(status, "RssFile") / 1024,
    threads: statusField(status, "Threads"),
    sqliteCacheBound: cacheBound / MB,
    sqliteWal: wal / MB,
    sqliteConnections: open,
  };
}

// A full collection before each sample, so the figures are what is kept, not garbage not yet swept.
v8.setFlagsFromString("--expose-gc");
const collectGarbage = vm.runInNewContext("gc") as () => void;

async function sample(turns: number): Promise<Sample> {
  // The fake providers (in this process) record every request: the test's memory, not the host's.
  rig.main.clearRequests();
  rig.aux.clearRequests();
  collectGarbage();
  const handles: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) handles[kind] = (handles[kind] ?? 0) + 1;
  const memory = process.memoryUsage();
  const statementsPrepared = prepared;
  prepared = 0;
  return {
    turns,
    rssMb: memory.rss / 1024 / 1024,
    heapMb: memory.heapUsed / 1024 / 1024,
    memory: memoryBreakdown(),
    pluginHostRssMb: rssOf(await rig.host.plugins.pluginHostPid()),
    handles,
    eventListeners: rig.host.events.listenerCount,
    statementsPrepared,
  };
}

describe("soak", () => {
  it(`${TURNS} turns across ${SESSIONS} chats with tools and side questions: every one completes, memory and counts sampled`, async () => {
    const sessions: string[] = [];
    for (let i = 0; i < SESSIONS; i++) sessions.push((await rig.ok("session.create", {})).sessionId);
    const samples: Sample[] = [await sample(0)];
    const counts = { turns: 0, toolTurns: 0, sideQuestions: 0, sideAnswers: 0, failed: [] as string[] };
    const started = performance.now();

    const turn = async (n: number) => {
      const sessionId = sessions[n % SESSIONS]!;
      const useTool = n % 4 === 0;
      const text = useTool ? `use tool ${n}` : `message ${n}`;
      const finished = rig.nextEvent("session.turn.finished", (_p, s) => s === sessionId, 60_000);
      await rig.ok("session.send", { sessionId, text });
      const payload = await finished;
      if (payload.status !== "ok") counts.failed.push(`turn ${n}: ${payload.status} ${payload.error ?? ""}`);
      if (useTool) counts.toolTurns += 1;
      if (n % 10 === 0) {
        counts.sideQuestions += 1;
        const { answer } = await rig.command("soak-ask", { sessionId });
        if (answer) counts.sideAnswers += 1;
      }
      counts.turns += 1;
      if (counts.turns % SAMPLE_EVERY === 0) samples.push(await sample(counts.turns));
    };
    // Each lane takes the next turn number whose chat is its own, so a chat never has two turns at once.
    await Promise.all(
      Array.from({ length: LANES }, async (_, lane) => {
        for (let n = lane; n < TURNS; n += LANES) await turn(n);
      }),
    );
    await rig.host.sessions.settled();
    const tookMs = performance.now() - started;
    // Where the last sample's resident memory goes once the host rests: V8's memory reducer
    // compacts the old space after a few idle seconds (its free pages are returned), and a
    // compacting collection shows what is kept at all. Taken after the run, as the compaction
    // changes the heap the later samples would measure.
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const rested = await sample(TURNS);
    v8.setFlagsFromString("--compact-on-every-full-gc");
    const compacted = await sample(TURNS);
    v8.setFlagsFromString("--no-compact-on-every-full-gc");

    expect(counts.failed).toEqual([]);
    expect(counts.turns).toBe(TURNS);
    expect(counts.sideAnswers).toBe(counts.sideQuestions);
    // Every message of every chat is there: a user message and a reply per turn, tool messages too.
    let stored = 0;
    for (const sessionId of sessions)
      stored += (await rig.ok("session.messages", { sessionId })).messages.length;
    expect(stored).toBe(TURNS * 2 + counts.toolTurns * 2);

    if (process.env.HERMES_STRESS_REPORT) {
      fs.mkdirSync(path.dirname(process.env.HERMES_STRESS_REPORT), { recursive: true });
      fs.writeFileSync(
        process.env.HERMES_STRESS_REPORT,
        JSON.stringify({
          sessions: SESSIONS,
          lanes: LANES,
          ...counts,
          stored,
          tookMs,
          samples,
          idleMs: IDLE_MS,
          rested,
          compacted,
        }),
      );
    }
  }, 1_500_000);
});
