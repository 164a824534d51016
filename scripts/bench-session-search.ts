/**
 * Session search benchmark: seeds 10,000 sessions / 200,000 messages through the store's normal
 * appends (in transactions), then times ~200 varied searches. Run: `npx tsx scripts/bench-session-search.ts`
 * (optional: `--sessions N --messages-per-session M --queries Q`).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ManualClock } from "../electron/host/clock.js";
import { SessionStore } from "../electron/host/sessions/session-store.js";
import type { SessionSnapshot } from "../electron/host/sessions/types.js";

const args = parseArgs(process.argv.slice(2));
const SESSIONS = args["sessions"] ?? 10_000;
const MESSAGES_PER_SESSION = args["messages-per-session"] ?? 20;
const QUERIES = args["queries"] ?? 200;

// Deterministic so runs compare: mulberry32.
function makeRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = makeRandom(42);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

const COMMON = (
  "the of and to a in is it you that he was for on are with as I his they be at one have this from or had by " +
  "code file function error value test model reply session plugin request server data build type string number " +
  "please could would should about because when where which there their what how why does make need want use"
).split(" ");
const SYLLABLES = "ka lo mi ne ru sa ti vo ze pa qu ri sto bel dan fer gol hin jor kel mur nix por tal ven wex yul zor"
  .split(" ");
const RARE: string[] = [];
for (let i = 0; i < 8_000; i++) {
  const parts = 2 + Math.floor(random() * 3);
  let word = "";
  for (let p = 0; p < parts; p++) word += pick(SYLLABLES);
  RARE.push(word);
}

// Zipf-like: common words dominate, the long tail of rare words follows a power law.
function word(): string {
  if (random() < 0.55) return pick(COMMON);
  return RARE[Math.floor(RARE.length * Math.pow(random(), 2.5))] as string;
}
function sentence(min: number, max: number): string {
  const count = min + Math.floor(random() * (max - min + 1));
  return Array.from({ length: count }, word).join(" ");
}

const snapshot: SessionSnapshot = {
  mainRoute: { provider: "fake", model: "fake-model" },
  systemPrompt: "You are a helpful assistant.",
  prefillMessages: [],
  ephemeralSystemPrompt: null,
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-bench-sessions-"));
const file = path.join(dir, "sessions.sqlite");
const clock = new ManualClock();
const store = new SessionStore({ file, clock });

try {
  const seedStart = performance.now();
  const BATCH = 500;
  for (let done = 0; done < SESSIONS; done += BATCH) {
    store.transaction(() => {
      for (let s = done; s < Math.min(SESSIONS, done + BATCH); s++) {
        const session = store.createSession({ snapshot, title: sentence(2, 5) });
        for (let m = 0; m < MESSAGES_PER_SESSION; m++) {
          clock.advance(1_000);
          store.appendMessage({
            sessionId: session.id,
            turnId: `turn-${m >> 1}`,
            role: m % 2 === 0 ? "user" : "assistant",
            content: m % 2 === 0 ? sentence(5, 30) : sentence(20, 120),
          });
        }
      }
    });
  }
  const seedMs = performance.now() - seedStart;
  const messages = SESSIONS * MESSAGES_PER_SESSION;
  console.log(`session_store_seed: ${SESSIONS} sessions, ${messages} messages in ${(seedMs / 1000).toFixed(1)} s`);
  console.log(`session_store_size: ${(fileSize(file) / 1024 / 1024).toFixed(1)} MiB (with WAL)`);

  const queries = buildQueries(QUERIES);
  for (const q of queries.slice(0, 20)) store.search(q, { limit: 50 }); // warm the page cache
  const timings: number[] = [];
  let hits = 0;
  for (const q of queries) {
    const start = performance.now();
    hits += store.search(q, { limit: 50 }).length;
    timings.push(performance.now() - start);
  }
  timings.sort((a, b) => a - b);
  console.log(`session_search_queries: ${queries.length} (mean ${(hits / queries.length).toFixed(1)} hits, limit 50)`);
  console.log(`session_search_p50_ms: ${percentile(timings, 0.5).toFixed(2)}`);
  console.log(`session_search_p95_ms: ${percentile(timings, 0.95).toFixed(2)}`);
  console.log(`session_search_max_ms: ${percentile(timings, 1).toFixed(2)}`);
} finally {
  store.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

function buildQueries(count: number): string[] {
  const hostile = ['foo"bar', "AND", "*", "-", "NEAR(", "a OR b", "title:x", "(", '"', "^start", "don't"];
  const out: string[] = [];
  for (let i = 0; out.length < count; i++) {
    switch (i % 8) {
      case 0:
        out.push(pick(COMMON)); // matches most messages: the worst case for "newest first"
        break;
      case 1:
        out.push(RARE[Math.floor(random() * 200)] as string); // frequent tail word
        break;
      case 2:
        out.push(pick(RARE)); // rare word
        break;
      case 3:
        out.push(`${pick(COMMON)} ${pick(RARE)}`);
        break;
      case 4: {
        const w = pick(RARE);
        out.push(w.slice(0, 3 + Math.floor(random() * 3))); // prefix while typing
        break;
      }
      case 5:
        out.push(`${pick(RARE)} ${pick(RARE)}`);
        break;
      case 6:
        out.push(pick(hostile));
        break;
      default:
        out.push(`zzqx${i}`); // no match
    }
  }
  return out;
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[index] ?? 0;
}

function fileSize(f: string): number {
  return [f, `${f}-wal`].reduce((sum, p) => sum + (fs.existsSync(p) ? fs.statSync(p).size : 0), 0);
}

function parseArgs(argv: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i]?.replace(/^--/, "");
    const value = Number(argv[i + 1]);
    if (key && Number.isFinite(value)) out[key] = value;
  }
  return out;
}
