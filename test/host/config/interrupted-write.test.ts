import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { findDocumentIssues } from "../../../electron/host/config/schema-issues.js";
import { SettingsStore } from "../../../electron/host/config/settings-store.js";
import { filesIn, makeTempHome, waitFor } from "./config-test-helpers.js";
import { bigSettingsFor, writeNumberOf } from "./fixtures/big-settings.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, "../../..");
const writeLoop = path.join(here, "fixtures", "write-loop.ts");

interface Writer {
  child: ChildProcess;
  writes: () => number;
  exited: Promise<unknown>;
}

const liveChildren = new Set<ChildProcess>();
afterEach(() => {
  // A failed assertion must not leave a writer looping in the background.
  for (const child of liveChildren) child.kill("SIGKILL");
  liveChildren.clear();
});

function startWriter(home: string): Writer {
  const child = spawn(process.execPath, ["--import", "tsx", writeLoop, home], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  liveChildren.add(child);
  child.once("exit", () => liveChildren.delete(child));
  let output = "";
  let errors = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise((resolve) => child.once("exit", resolve)).then(() => {
    if (child.signalCode !== "SIGKILL") throw new Error(`writer ended on its own: ${errors}`);
  });
  return { child, exited, writes: () => (output.match(/^wrote /gm) ?? []).length };
}

/** The file must be one whole write: it parses, validates, and every part encodes one write. */
function expectWholeFile(home: string): number {
  const text = fs.readFileSync(path.join(home, "config.yaml"), "utf8");
  let doc: Record<string, unknown> | null = null;
  expect(() => (doc = parse(text) as Record<string, unknown> | null), "config.yaml must parse").not.toThrow();
  if (doc === null || typeof doc !== "object") {
    throw new Error(`config.yaml is torn: ${text.length} bytes that are not a mapping of settings`);
  }
  expect(findDocumentIssues(doc)).toEqual([]);
  const n = writeNumberOf(doc as never);
  expect(typeof n, `config.yaml is not one whole write: ${String(n)}`).toBe("number");
  const store = new SettingsStore({ home });
  try {
    expect(store.notices()).toEqual([]);
  } finally {
    store.close();
  }
  return n as number;
}

describe("SettingsStore: a write killed half-way", () => {
  it("leaves config.yaml whole (old or new content, never torn) whenever the writer is SIGKILLed", async () => {
    const home = makeTempHome();
    const seed = new SettingsStore({ home });
    const first = bigSettingsFor(1_000_000);
    seed.update((doc) => Object.assign(doc, first));
    seed.close();

    // Kill after a number of completed writes: different points in the write cycle.
    for (const afterWrites of [0, 1, 2, 5, 9]) {
      const writer = startWriter(home);
      await waitFor(`writer to finish ${afterWrites} writes`, () => writer.writes() >= afterWrites, 15_000);
      writer.child.kill("SIGKILL");
      await writer.exited;
      expectWholeFile(home);
    }

    // Kill at the first sign of a write on disk (a temp file, or config.yaml itself for a writer
    // that is not atomic); retry until one kill demonstrably landed inside an atomic write (its
    // temp file is left behind).
    let interruptedMidWrite = 0;
    for (let attempt = 0; attempt < 10 && interruptedMidWrite === 0; attempt++) {
      const before = new Set(filesIn(home, "config.yaml.tmp-"));
      const writer = startWriter(home);
      const watcher = fs.watch(home, (_event, name) => {
        if (name?.startsWith("config.yaml") && writer.writes() >= 1) writer.child.kill("SIGKILL");
      });
      try {
        // Backstop so a writer the watcher never catches cannot hang the test.
        await waitFor(
          "the writer to be killed",
          () => writer.child.signalCode !== null || writer.writes() >= 40,
          30_000,
        );
        writer.child.kill("SIGKILL");
        await writer.exited;
      } finally {
        watcher.close();
      }
      if (filesIn(home, "config.yaml.tmp-").some((name) => !before.has(name))) interruptedMidWrite++;
      expectWholeFile(home);
    }
    expect(interruptedMidWrite).toBeGreaterThan(0);
  }, 120_000);
});
