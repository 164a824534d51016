/**
 * The user's login-shell PATH (docs/contract.md §13.2): an app started from a desktop launcher
 * gets a bare PATH without the folders `npx`/`uvx` live in. Asked once (bounded), then cached;
 * any failure falls back to this process's PATH.
 */
import { execFile } from "node:child_process";

const MARK = "__HERMES_PATH__";
const LOOKUP_TIMEOUT_MS = 3000;

export type PathLookup = () => Promise<string>;

let cached: Promise<string> | null = null;

/** The PATH stdio servers start with. */
export function loginShellPath(): Promise<string> {
  cached ??= lookUp();
  return cached;
}

async function lookUp(): Promise<string> {
  const fallback = process.env["PATH"] ?? "";
  const shell = process.env["SHELL"];
  if (process.platform === "win32" || !shell) return fallback;
  return new Promise((resolve) => {
    execFile(
      shell,
      ["-ilc", `printf '%s%s%s' '${MARK}' "$PATH" '${MARK}'`],
      // The shell's own environment, minus nothing: it is the user's shell reading their profile.
      { timeout: LOOKUP_TIMEOUT_MS, encoding: "utf8", maxBuffer: 1024 * 1024 },
      (error, stdout) => {
        const match = typeof stdout === "string" ? stdout.split(MARK) : [];
        const found = match.length >= 3 ? match[1]!.trim() : "";
        resolve(!error && found ? mergePaths(found, fallback) : fallback);
      },
    );
  });
}

/** The login shell's folders first, then any of ours it lacks. */
export function mergePaths(first: string, second: string): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const dir of [...first.split(":"), ...second.split(":")]) {
    if (!dir || seen.has(dir)) continue;
    seen.add(dir);
    out.push(dir);
  }
  return out.join(":");
}
