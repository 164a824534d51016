/* eslint-disable @typescript-eslint/no-explicit-any -- RPC answers are read as plain JSON here. */
/**
 * `npm run web` announces its URL before the host has started (the page's shell needs no host):
 * a call made right away waits for the host and is answered, events reach a connection opened
 * before the host was up, and the host starts on its own when nobody connects.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";

const token = "web-launch-test-token-0123456789abcdef";
const running: Array<{ child: ChildProcess; home: string }> = [];

async function launch(): Promise<{ child: ChildProcess; url: URL; home: string }> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-web-launch-"));
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(process.cwd(), "electron", "web.ts"), "--port", "0", "--home", home],
    {
      env: { ...process.env, HERMES_DESKTOP_WEB_TOKEN: token, DBUS_SESSION_BUS_ADDRESS: "" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  running.push({ child, home });
  let out = "";
  const url = await new Promise<URL>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Hermes Desktop web UI: (\S+)/.exec(out);
      if (match) resolve(new URL(match[1]!));
    });
    child.once("exit", (code) => reject(new Error(`web host exited with ${code}`)));
  });
  return { child, url, home };
}

function connect(url: URL): Promise<WebSocket> {
  const ws = new WebSocket(`ws://${url.host}/rpc`, ["hermes.rpc"], {
    headers: { Authorization: `Bearer ${token}`, Origin: `http://${url.host}` },
  });
  return once(ws, "open").then(() => ws);
}

function call(ws: WebSocket, id: number, method: string, params: unknown = {}): Promise<any> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const frame = JSON.parse(String(data));
      if (frame.id !== id) return;
      ws.off("message", onMessage);
      resolve(frame);
    };
    ws.on("message", onMessage);
    ws.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
  });
}

afterEach(async () => {
  for (const { child, home } of running.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    }
    fs.rmSync(home, { recursive: true, force: true });
  }
});

describe("npm run web", () => {
  it("answers a call made the moment the URL is printed, and sends events to that connection", async () => {
    const { url } = await launch();
    const ws = await connect(url);
    const events: string[] = [];
    ws.on("message", (data) => {
      const frame = JSON.parse(String(data));
      if (frame.method === "event") events.push(frame.params?.type);
    });
    const info = await call(ws, 1, "host.info");
    expect(info.error).toBeUndefined();
    expect(info.result.mode).toBe("web");
    const saved = await call(ws, 2, "settings.set", { key: "display.busy_input_mode", value: "steer" });
    expect(saved.error).toBeUndefined();
    await expect.poll(() => events).toContain("settings.changed");
    ws.close();
  }, 30_000);

  it("starts the host on its own when nobody connects (it writes its data home)", async () => {
    const { home } = await launch();
    expect(fs.readdirSync(home)).toEqual([]);
    await expect.poll(() => fs.readdirSync(home).length, { timeout: 15_000 }).toBeGreaterThan(0);
  }, 30_000);
});
