import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";
import { ManualClock } from "../../../fixtures/manual-clock.js";
import { SessionStore } from "../../../../electron/host/sessions/session-store.js";
import type { SessionSnapshot } from "../../../../electron/host/sessions/store/types.js";

export const snapshot: SessionSnapshot = {
  mainRoute: { provider: "fake", model: "fake-model-1" },
  systemPrompt: "You are a test assistant.\n\nMemory: likes tea.",
  prefillMessages: [{ role: "user", content: "Hello from the prefill" }],
  ephemeralSystemPrompt: null,
};

const cleanups: (() => void)[] = [];

afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

/** A fresh temp folder, removed after the test. */
export function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-session-store-"));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A store on a new file in a temp folder, closed after the test. */
export function openStore(options: { dir?: string; clock?: ManualClock; busyTimeoutMs?: number } = {}): {
  store: SessionStore;
  clock: ManualClock;
  file: string;
  reopen: () => SessionStore;
} {
  const dir = options.dir ?? tempDir();
  const file = path.join(dir, "sessions.sqlite");
  const clock = options.clock ?? new ManualClock();
  const open = () => {
    const store = new SessionStore({ file, clock, busyTimeoutMs: options.busyTimeoutMs ?? 100 });
    cleanups.push(() => store.close());
    return store;
  };
  return { store: open(), clock, file, reopen: open };
}
