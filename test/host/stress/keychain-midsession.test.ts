/* eslint-disable @typescript-eslint/no-explicit-any -- the child's JSON result is read as plain JSON here. */
/**
 * The keychain locked or gone in the middle of a session (issue 32's fault matrix, keychain row):
 * each cell runs a host in a child process on its own session bus with its own gnome-keyring
 * (support/keychain-child.ts), so locking or stopping it touches nothing else. The key the
 * session already read keeps its chats answering; saving a new key fails with
 * `keychain_unavailable` and a message saying why and what to do, writing nothing; the other chat
 * keeps being served; nothing saved is lost; no turn is left busy.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const child = join(import.meta.dirname, "support", "keychain-child.ts");

function runCell(mode: "locked" | "absent"): Promise<Record<string, any>> {
  const dir = mkdtempSync(join(tmpdir(), "hermes-keychain-cell-"));
  mkdirSync(join(dir, "run"), { mode: 0o700 });
  mkdirSync(join(dir, "home"));
  const inner = `echo -n cell | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; exec "${process.execPath}" --import tsx "${child}" "${join(dir, "home")}" ${mode}`;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: dir,
    XDG_DATA_HOME: join(dir, "data"),
    XDG_RUNTIME_DIR: join(dir, "run"),
  };
  const proc = spawn("dbus-run-session", ["--", "sh", "-c", inner], {
    cwd: process.cwd(),
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  proc.stdout.on("data", (d: Buffer) => (out += String(d)));
  proc.stderr.on("data", (d: Buffer) => (out += String(d)));
  return new Promise((resolve, reject) => {
    proc.once("exit", (code) => {
      rmSync(dir, { recursive: true, force: true });
      const line = out.split("\n").find((l) => l.startsWith("RESULT "));
      if (!line) reject(new Error(`the keychain cell (${mode}) exited with ${code} and no result:\n${out}`));
      else resolve(JSON.parse(line.slice("RESULT ".length)) as Record<string, any>);
    });
  });
}

describe("the keychain in the middle of a session", () => {
  for (const mode of ["locked", "absent"] as const) {
    it(`${mode}: chats keep answering, a new key is refused clearly, nothing is lost, nothing left busy`, async () => {
      const r = await runCell(mode);
      expect(r.before.a).toMatchObject({ status: "complete", content: "Echo: first in A" });
      // The key the session already read answers both chats.
      expect(r.after.a).toMatchObject({ status: "complete", content: "Echo: second in A" });
      expect(r.after.b).toMatchObject({ status: "complete", content: "Echo: second in B" });
      // A new key cannot be saved: said why and what to do; nothing written.
      expect(r.save.reason).toBe("keychain_unavailable");
      expect(r.save.message).toMatch(
        mode === "locked"
          ? /^Nothing was saved\. .*keychain is locked/
          : /^Nothing was saved\. .*no Secret Service is running/,
      );
      expect(r.save.message).toMatch(/key_env.*To fix it: unlock your keychain/);
      expect(r.save.message).not.toContain("4444");
      expect(r.secondListed).toBe(false);
      expect(r.idle).toBe(true);
      expect(r.savedAfter).toBe(r.savedBefore + 2);
    }, 120_000);
  }
});
