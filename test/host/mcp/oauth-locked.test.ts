/**
 * OAuth sign-in with the keychain locked (docs/contract.md §13.1: tokens in the keychain, never
 * anywhere else): the host runs in a child process with its own D-Bus session and gnome-keyring,
 * whose login collection is locked mid-sign-in (the tokens cannot be kept: the sign-in fails
 * saying so, and the tokens appear nowhere) and before a second sign-in (refused with
 * `keychain_unavailable`).
 */
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempHome } from "../support/temp-home.js";
import { startOAuthFixture, type OAuthFixture } from "./support/oauth-fixture.js";

let fixture: OAuthFixture;
beforeAll(async () => {
  fixture = await startOAuthFixture();
});
afterAll(async () => {
  await fixture?.stop();
});

describe("OAuth sign-in with a locked keychain", () => {
  it("fails saying the keychain is locked, and the tokens reach nothing else", async () => {
    const home = tempHome();
    const keyring = tempHome();
    const runtime = join(keyring.dir, "run");
    mkdirSync(runtime, { mode: 0o700 });
    try {
      const script = [
        "echo -n pass | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1",
        `exec "${process.execPath}" --import tsx "${join(__dirname, "fixtures", "locked-keychain-sign-in.ts")}" "$0" "$1"`,
      ].join("; ");
      const out = await new Promise<string>((resolve, reject) =>
        execFile(
          "dbus-run-session",
          ["--", "sh", "-c", script, home.dir, fixture.mcpUrl],
          {
            env: {
              PATH: process.env["PATH"] ?? "",
              HOME: keyring.dir,
              XDG_DATA_HOME: join(keyring.dir, "data"),
              XDG_RUNTIME_DIR: runtime,
              DISPLAY: "",
            },
            timeout: 60_000,
            maxBuffer: 16 * 1024 * 1024,
          },
          (err, stdout, stderr) =>
            stdout.includes("{") ? resolve(stdout) : reject(err ?? new Error(`no output: ${stderr}`)),
        ),
      );
      const { page, first, second, secondView, config, list } = JSON.parse(
        out
          .trim()
          .split("\n")
          .filter((l) => l.startsWith("{"))
          .at(-1)!,
      );
      expect(page.status).toBe(400);
      expect(page.text).toContain("Sign-in failed");
      expect(first.oauth.state).toBe("failed");
      expect(first.oauth.error).toMatch(
        /^exchanging the authorization code failed: the OS keychain is not available, so the sign-in could not be kept: /,
      );
      expect(second.error.data.reason).toBe("keychain_unavailable");
      expect(second.error.message).toMatch(/Sign-in to 'second' failed: the OS keychain is not available/);
      expect(secondView.oauth.state).toBe("failed");

      const { issued } = await fixture.stats();
      expect(issued.length).toBeGreaterThanOrEqual(2);
      const texts = [config, JSON.stringify(list), JSON.stringify(first), JSON.stringify(page)];
      const walk = (dir: string) => {
        if (!existsSync(dir)) return;
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
          const path = join(dir, entry.name);
          if (entry.isDirectory()) walk(path);
          else texts.push(readFileSync(path, "utf8"));
        }
      };
      walk(home.dir);
      for (const token of issued) for (const text of texts) expect(text).not.toContain(token);
    } finally {
      home.cleanup();
      keyring.cleanup();
    }
  }, 90_000);
});
