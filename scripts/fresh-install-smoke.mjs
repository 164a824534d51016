#!/usr/bin/env node
// A fresh machine without libsecret: a copy of the repository is installed with pkg-config unable to
// find any library (what a machine without libsecret-1-dev gives keytar's native build). The install
// must succeed, `npm start` must serve the app, host.info must say why the keychain is off and what
// to do, and a keyless local provider must answer a chat. Part of `npm test`.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const work = mkdtempSync(join(tmpdir(), "hermes-fresh-"));
const clone = join(work, "app");
const home = join(work, "home");
const children = [];
const nowhere = join(work, "no-pkgconfig");
mkdirSync(nowhere);

function fail(message) {
  console.error(`✗ fresh install: ${message}`);
  cleanup();
  process.exit(1);
}
function cleanup() {
  // Each child leads its own process group: npm start's own children go with it.
  for (const child of children) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  rmSync(work, { recursive: true, force: true });
}

// The tracked files only, as a clone would have them (works with uncommitted edits too).
const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
  cwd: root,
  encoding: "utf8",
})
  .split("\0")
  .filter((f) => f !== "" && existsSync(join(root, f)));
for (const file of files) cpSync(join(root, file), join(clone, file), { recursive: true });

const env = {
  ...process.env,
  PKG_CONFIG_LIBDIR: nowhere,
  PKG_CONFIG_PATH: nowhere,
  npm_config_audit: "false",
  npm_config_fund: "false",
};
delete env.DBUS_SESSION_BUS_ADDRESS;

const started = Date.now();
try {
  execFileSync("npm", ["ci", "--prefer-offline"], { cwd: clone, env, stdio: ["ignore", "ignore", "pipe"] });
} catch (err) {
  fail(`npm ci failed without libsecret:\n${String(err.stderr ?? err.message).slice(-2000)}`);
}
if (existsSync(join(clone, "node_modules", "keytar", "build", "Release", "keytar.node")))
  fail("keytar was built although pkg-config could not find libsecret: the test proves nothing");
console.log(
  `npm ci without libsecret: ok in ${((Date.now() - started) / 1000).toFixed(0)} s, keytar left out`,
);

/** Spawns a process and resolves with the first line matching `pattern`. */
function waitForLine(cmd, args, opts, pattern, name) {
  const child = spawn(cmd, args, { ...opts, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let out = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} printed nothing matching ${pattern} in 180 s:\n${out}`)),
      180_000,
    );
    const onData = (d) => {
      out += d;
      const m = pattern.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, match: m, output: () => out });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${name} exited with ${code}:\n${out.slice(-2000)}`)));
  });
}

const fake = await waitForLine(
  process.execPath,
  ["--import", "tsx", join(root, "test", "fixtures", "fake-provider-cli.ts"), "--port", "0"],
  { cwd: root },
  /listening on (http:\/\/127\.0\.0\.1:\d+\S*)/,
  "fake provider",
).catch((e) => fail(e.message));

const app = await waitForLine(
  "npm",
  ["start", "--", "--port", "0", "--home", home],
  { cwd: clone, env: { ...env, DISPLAY: "", WAYLAND_DISPLAY: "" } },
  /Hermes Desktop web UI: http:\/\/127\.0\.0\.1:(\d+)\/\?token=(\S+)/,
  "npm start",
).catch((e) => fail(e.message));
const [, port, token] = app.match;
if (!/Electron is not available/.test(app.output())) fail("npm start did not say why Electron is not used");

const ws = new WebSocket(`ws://127.0.0.1:${port}/rpc`, { headers: { Authorization: `Bearer ${token}` } });
await new Promise((resolve, reject) => {
  ws.once("open", resolve);
  ws.once("error", reject);
}).catch((e) => fail(`WebSocket: ${e.message}`));
let seq = 0;
const pending = new Map();
const finished = [];
ws.on("message", (data) => {
  const frame = JSON.parse(String(data));
  if (frame.id !== undefined && pending.has(frame.id)) {
    pending.get(frame.id)(frame);
    pending.delete(frame.id);
  } else if (frame.params?.type === "session.turn.finished") finished.push(frame.params.payload);
});
const call = (method, params = {}) =>
  new Promise((resolve, reject) => {
    const id = ++seq;
    pending.set(id, (frame) =>
      frame.error ? reject(new Error(`${method}: ${frame.error.message}`)) : resolve(frame.result),
    );
    ws.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
  });
const until = async (what, check) => {
  for (let i = 0; i < 300; i++) {
    const value = await check();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  fail(`timed out waiting for ${what}`);
};

try {
  const notice = await until("the keychain notice in host.info", async () =>
    (await call("host.info")).notices.find((n) => n.kind === "keychain_unavailable"),
  );
  for (const words of [
    "keytar",
    "sudo apt install libsecret-1-dev && npm rebuild keytar",
    "Keyless local providers",
  ])
    if (!notice.message.includes(words))
      fail(`the keychain notice does not say "${words}": ${notice.message}`);
  // The console line follows the same probe as host.info's answer; its pipe may deliver it a moment later.
  const printed = () => /Notice: No system keychain is available/.test(app.output());
  for (let i = 0; i < 200 && !printed(); i++) await new Promise((r) => setTimeout(r, 50));
  if (!printed()) fail("npm start did not print the keychain notice");
  console.log(`host.info says: ${notice.message}`);

  const baseUrl = fake.match[1].replace(/\/$/, "");
  await call("providers.save", { id: "local", name: "Local", base_url: baseUrl });
  const [model] = (await call("providers.models", { id: "local" })).models;
  await call("model.set", { scope: "main", provider: "local", model });
  const { sessionId } = await call("session.create", {});
  const { turnId } = await call("session.send", { sessionId, text: "hello without a keychain" });
  const done = await until("the keyless chat turn", () => finished.find((f) => f.turnId === turnId));
  if (done.status !== "ok") fail(`the keyless local provider's turn ended ${done.status}: ${done.error}`);
  console.log("keyless local provider without a keychain: chat turn ok");
} finally {
  ws.close();
}
cleanup();
console.log("✓ fresh install without libsecret: installs, starts, says why the keychain is off, chats");
process.exit(0);
