import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";

const homes: string[] = [];

/** A fresh temp data home, removed after the test. */
export function makeTempHome(): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-config-"));
  homes.push(home);
  return home;
}

afterEach(() => {
  for (const home of homes.splice(0)) fs.rmSync(home, { recursive: true, force: true });
});

/** Polls `condition` until it holds or the deadline passes (then fails with `what`). */
export async function waitFor(what: string, condition: () => boolean, deadlineMs = 10_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function filesIn(home: string, prefix: string): string[] {
  return fs.readdirSync(home).filter((name) => name.startsWith(prefix));
}
