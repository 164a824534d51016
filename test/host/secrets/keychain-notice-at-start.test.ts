/**
 * The keychain notice at start-up (README "Before you start"): on a machine without the keychain
 * binding, the web host's very first `host.info`, asked the moment the "web UI:" line appears,
 * already says the keychain is off. A real `out/app/web.js` process; keytar's import fails in it
 * as on a fresh install without libsecret (fixtures/no-keytar.mjs).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { afterEach, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const noKeytar = fileURLToPath(new URL("./fixtures/no-keytar.mjs", import.meta.url));
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((fn) => fn()));

function startWeb(): Promise<{ port: string; token: string; child: ChildProcess }> {
  const home = mkdtempSync(join(tmpdir(), "hermes-nokeytar-start-"));
  const env: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: home };
  const child = spawn(
    process.execPath,
    ["--import", noKeytar, join(root, "out", "app", "web.js"), "--port", "0", "--home", home],
    { env, stdio: ["ignore", "pipe", "pipe"] },
  );
  cleanups.push(() => {
    child.kill("SIGKILL");
    rmSync(home, { recursive: true, force: true });
  });
  let out = "";
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      out += String(d);
      const m = /web UI: http:\/\/127\.0\.0\.1:(\d+)\/\?token=(\S+)/.exec(out);
      if (m?.[1] && m[2]) resolve({ port: m[1], token: m[2], child });
    });
    child.stderr.on("data", (d: Buffer) => (out += String(d)));
    child.once("exit", (code) => reject(new Error(`web.js exited with ${code}:\n${out}`)));
  });
}

describe("the keychain notice at start-up", () => {
  it("is in the first host.info, asked as soon as the web UI's URL is printed", async () => {
    const { port, token } = await startWeb();
    const ws = new WebSocket(`ws://127.0.0.1:${port}/rpc`, { headers: { Authorization: `Bearer ${token}` } });
    cleanups.push(() => ws.close());
    // Event frames may come first; the answer is the frame with our id.
    const answer = new Promise<{ result: { notices: { kind: string; message: string }[] } }>((resolve) =>
      ws.on("message", (data) => {
        const frame = JSON.parse(String(data)) as { id?: number };
        if (frame.id === 1) resolve(frame as never);
      }),
    );
    await new Promise((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", reject);
    });
    ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "host.info", params: {} }));
    const { notices } = (await answer).result;
    const notice = notices.find((n) => n.kind === "keychain_unavailable");
    expect(notice?.message).toContain(
      "No system keychain is available (its library, keytar, is not installed)",
    );
    expect(notice?.message).toContain("sudo apt install libsecret-1-dev && npm rebuild keytar");
  });
});
