/**
 * What an attack on web mode found (issue 13): no redirect can be steered off the app, a weak
 * fixed token is refused, and an oversized frame closes only its own connection.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startWebServer, type WebServer } from "../../../electron/web/server.js";
import { WeakWebTokenError } from "../../../electron/web/auth.js";
import { startTestHost, type TestHost } from "../support/test-host.js";
import { tempHome } from "../support/temp-home.js";

const token = "attack-test-token-0123456789abcdefghij";
let t: TestHost;
let server: WebServer;
let staticDir: { dir: string; cleanup(): void };
const logLines: string[] = [];

beforeEach(async () => {
  t = await startTestHost();
  staticDir = tempHome("hermes-static-");
  writeFileSync(join(staticDir.dir, "index.html"), "<!doctype html><title>Hermes</title>");
  logLines.length = 0;
  server = await startWebServer({
    router: t.host.router,
    events: t.host.events,
    token,
    port: 0,
    staticDir: staticDir.dir,
    log: (line) => logLines.push(line),
  });
});

afterEach(async () => {
  await server.close();
  await t.dispose();
  staticDir.cleanup();
});

/** Sends this exact request target (fetch would normalise the path) and returns the head. */
function rawGet(target: string): Promise<{ status: number; headers: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port: server.port }, () => {
      socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`);
    });
    let text = "";
    socket.on("data", (d) => (text += d.toString()));
    socket.once("end", () => {
      const head = text.split("\r\n\r\n")[0] ?? "";
      resolve({ status: Number(head.split(" ")[1]), headers: head });
    });
    socket.once("error", reject);
  });
}

function openSocket(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/rpc`, {
      headers: { Authorization: `Bearer ${token}` },
      maxPayload: 0,
    });
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
  });
}

function hostInfo(ws: WebSocket, id: number): Promise<unknown> {
  return new Promise((resolve) => {
    ws.on("message", (data) => {
      const frame = JSON.parse(data.toString());
      if (frame.id === id) resolve(frame.result);
    });
    ws.send(JSON.stringify({ jsonrpc: "2.0", id, method: "host.info", params: {} }));
  });
}

describe("the token in the URL steers no redirect", () => {
  it.each([
    `/.//evil.example?token=${token}`,
    `/%2e//evil.example/x?token=${token}`,
    `//evil.example?token=${token}`,
    `/\\evil.example?token=${token}`,
    `/.//evil.example?token=wrong`,
  ])("GET %s answers without any Location", async (target) => {
    const answer = await rawGet(target);
    expect(answer.status).not.toBe(0);
    expect(answer.status < 300 || answer.status >= 400, `status ${answer.status}`).toBe(true);
    expect(answer.headers).not.toMatch(/^location:/im);
    expect(answer.headers).not.toMatch(/^set-cookie:/im);
    expect(answer.headers).toMatch(/^referrer-policy: no-referrer$/im);
  });
});

describe("a weak fixed token", () => {
  it("is refused by the server with a message that says why", async () => {
    await expect(
      startWebServer({ router: t.host.router, events: t.host.events, token: "a", staticDir: staticDir.dir }),
    ).rejects.toThrow(WeakWebTokenError);
    await expect(
      startWebServer({
        router: t.host.router,
        events: t.host.events,
        token: "x".repeat(31),
        staticDir: staticDir.dir,
      }),
    ).rejects.toThrow(/31 characters long; a launch token needs at least 32/);
  });

  it("stops `npm run web` at start with one line", () => {
    const home = tempHome("hermes-weak-token-");
    try {
      const run = spawnSync(
        process.execPath,
        ["--import", "tsx", join(process.cwd(), "electron", "web.ts"), "--port", "0", "--home", home.dir],
        { env: { ...process.env, HERMES_DESKTOP_WEB_TOKEN: "a" }, encoding: "utf8", timeout: 20_000 },
      );
      expect(run.status).toBe(2);
      expect(run.stdout).not.toContain("Hermes Desktop web UI");
      expect(run.stderr.trim().split("\n")).toEqual([
        expect.stringMatching(
          /^HERMES_DESKTOP_WEB_TOKEN is 1 characters long; a launch token needs at least 32/,
        ),
      ]);
    } finally {
      home.cleanup();
    }
  });
});

describe("an oversized frame", () => {
  it.each([17, 50])("of %i MB closes only its own connection, with 1009 and a log line", async (mb) => {
    const bystander = await openSocket();
    const attacker = await openSocket();
    const closed = new Promise<number>((resolve) => attacker.once("close", (code) => resolve(code)));
    attacker.on("error", () => undefined);
    attacker.send(Buffer.alloc(mb * 1024 * 1024, 0x61).toString());
    expect(await closed).toBe(1009);
    expect(logLines.some((line) => /Max payload size exceeded/i.test(line))).toBe(true);
    // The host serves the bystander and new connections alike.
    expect(await hostInfo(bystander, 1)).toMatchObject({ mode: "web" });
    const fresh = await openSocket();
    expect(await hostInfo(fresh, 2)).toMatchObject({ mode: "web" });
    bystander.close();
    fresh.close();
  });
});
