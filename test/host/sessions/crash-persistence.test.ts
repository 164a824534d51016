/**
 * Nothing a person saw is lost when the host dies mid-reply (issue 13): a child host streams a
 * reply, prints every delta it emits, and is SIGKILLed at a different point each round; what the
 * store holds afterwards must contain every emitted character, in order.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ManualClock } from "../../fixtures/manual-clock.js";
import { contentOf } from "../../../electron/host/sessions/store/tables/message-chunks.js";
import { SessionStore } from "../../../electron/host/sessions/session-store.js";
import { startFakeProvider, type FakeProvider } from "../../fixtures/fake-provider.js";
import { requireSecretService } from "../support/test-host.js";
import { tempHome } from "../support/temp-home.js";

const KEY = "sk-test-0000000000000000000000000000kill";
const ROUNDS = 5;
let provider: FakeProvider | null = null;
afterEach(async () => {
  await provider?.close();
  provider = null;
});

function story(words: number): string {
  return Array.from({ length: words }, (_, i) => `word${i}${i % 7 === 0 ? "." : ""}`).join(" ");
}

/** A child host that sends one message to `baseURL` at once and prints the deltas it emits. */
function startChild(home: string, baseURL: string) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(import.meta.dirname, "support", "stream-kill-child.ts"), home, baseURL, KEY],
    { cwd: process.cwd(), stdio: ["ignore", "pipe", "inherit"] },
  );
  return { child, exited: once(child, "exit") };
}

/** Runs one child until it has emitted `killAfter` deltas, kills it, returns what it emitted. */
async function streamAndKill(home: string, baseURL: string, killAfter: number): Promise<string> {
  const { child, exited } = startChild(home, baseURL);
  let emitted = "";
  let deltas = 0;
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    if (!line.startsWith("DELTA ")) continue;
    emitted += JSON.parse(line.slice("DELTA ".length)) as string;
    if (++deltas === killAfter) child.kill("SIGKILL");
  }
  await exited;
  expect(child.signalCode).toBe("SIGKILL");
  return emitted;
}

describe("a reply streaming when the host is killed", () => {
  it(`keeps on disk every character it emitted (${ROUNDS} kill -9 rounds)`, async () => {
    requireSecretService();
    provider = await startFakeProvider({ apiKey: KEY });
    const results: { emitted: number; saved: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const home = tempHome("hermes-kill-");
      try {
        provider.enqueue({ kind: "text", content: story(400), tokensPerSecond: 300 });
        // The later rounds pass the ~2K characters a reply's row takes in place (message-chunks.ts),
        // so the text killed mid-stream is partly in its chunks.
        const emitted = await streamAndKill(home.dir, provider.baseURL, 5 + round * 15);
        const file = join(home.dir, "sessions.sqlite");
        // The file as the kill left it: the reply's row and the chunks streamed into it.
        const db = new Database(file, { readonly: true });
        const saved = db
          .prepare(`SELECT ${contentOf("m")} FROM messages m WHERE role = 'assistant'`)
          .pluck()
          .all() as string[];
        db.close();
        expect(emitted.length).toBeGreaterThan(0);
        expect(saved).toHaveLength(1);
        expect(saved[0]!.startsWith(emitted), `round ${round}: the saved reply lost emitted text`).toBe(true);
        // And as the next open shows it: interrupted, with all of that text.
        const store = new SessionStore({ file, clock: new ManualClock() });
        const [, reply] = store.listMessages(store.listSessions()[0]!.id);
        store.close();
        expect(reply).toMatchObject({ role: "assistant", status: "interrupted", content: saved[0] });
        results.push({ emitted: emitted.length, saved: saved[0]!.length });
      } finally {
        provider.reset();
        home.cleanup();
      }
    }
    const equal = results.filter((r) => r.emitted === r.saved).length;
    console.log(
      `kill -9 mid-stream: ${ROUNDS} rounds, emitted/saved chars ${results.map((r) => `${r.emitted}/${r.saved}`).join(", ")}; ` +
        `${equal} identical, 0 lost`,
    );
  }, 120_000);
});

describe("a person's message whose request is in flight when the host is killed", () => {
  it("is inserted, complete and searchable, when the store next opens", async () => {
    requireSecretService();
    provider = await startFakeProvider({ apiKey: KEY });
    // The answer never comes in time: the host dies while its request is in flight.
    provider.fault({ kind: "slow", delayMs: 30_000 });
    const home = tempHome("hermes-kill-in-flight-");
    try {
      const { child, exited } = startChild(home.dir, provider.baseURL);
      const log = join(home.dir, "sessions.sqlite-pending");
      // Durable as soon as the request is out: the pending log holds it, the store not yet.
      await vi.waitFor(
        () => expect(existsSync(log) && readFileSync(log, "utf8")).toContain("Tell me a long story"),
        {
          timeout: 20_000,
          interval: 10,
        },
      );
      child.kill("SIGKILL");
      await exited;
      const store = new SessionStore({ file: join(home.dir, "sessions.sqlite"), clock: new ManualClock() });
      try {
        const [session] = store.listSessions();
        expect(store.listMessages(session!.id).map((m) => [m.role, m.content, m.status])).toEqual([
          ["user", "Tell me a long story", "complete"],
        ]);
        expect(store.search("story").map((hit) => hit.id)).toEqual([session!.id]);
      } finally {
        store.close();
      }
      expect(readFileSync(log, "utf8")).toBe("");
    } finally {
      provider.reset();
      home.cleanup();
    }
  }, 60_000);
});
