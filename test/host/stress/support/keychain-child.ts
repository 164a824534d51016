/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results are read as plain JSON here. */
/**
 * A host on its own session bus and its own gnome-keyring (started by the test around this
 * process), whose keychain goes away in the middle of a session. Usage:
 *   node --import tsx keychain-child.ts <home> <locked|absent>
 * It stores the provider's key in the keychain, runs a turn in each of two chats, then locks the
 * keychain (Secret Service `Lock`) or stops the keyring daemon (the process answering the Secret
 * Service name on this private bus), and prints one JSON line: what the next turns, a key save and
 * the store did.
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createHost } from "../../../../electron/host/create-host.js";
import { createKeytarVault } from "../../../../electron/host/secrets/vault.js";
import { startFakeProvider } from "../../../fixtures/fake-provider.js";

const [home, mode] = process.argv.slice(2) as [string, "locked" | "absent"];
const KEY = "sk-test-3333333333333333333333333333kcmd";
const provider = await startFakeProvider({ apiKey: KEY });
const host = createHost({
  home,
  vault: createKeytarVault({ service: `hermes-desktop-test-${randomUUID()}`, env: {}, timeoutMs: 3_000 }),
  mode: "web",
  version: "0.0.0-test",
  bundledPluginsDir: null,
});
let seq = 0;
const call = async (method: string, params: unknown = {}): Promise<any> =>
  host.router.handle({ jsonrpc: "2.0", id: ++seq, method, params }, { connectionId: "window-1" });
const ok = async (method: string, params: unknown = {}) => {
  const reply = await call(method, params);
  if (reply.error) throw new Error(`${method}: ${reply.error.data.reason}: ${reply.error.message}`);
  return reply.result;
};
const turn = async (sessionId: string, text: string) => {
  await ok("session.send", { sessionId, text });
  await host.sessions.idle(sessionId);
  const { messages } = await ok("session.messages", { sessionId });
  const last = messages.at(-1);
  return { status: last.status, content: last.content, error: last.meta?.error ?? null };
};

await ok("providers.save", { id: "main", name: "Main", base_url: provider.baseURL, apiKey: KEY });
host.settings.update((doc) => void (doc.model = { provider: "main", model: "fake/chat-small" }));
const { sessionId: a } = await ok("session.create", {});
const { sessionId: b } = await ok("session.create", {});
const before = { a: await turn(a, "first in A"), b: await turn(b, "first in B") };
await host.sessions.settled();
const savedBefore = (await ok("session.messages", { sessionId: a })).messages.length;

if (mode === "locked") {
  execFileSync("dbus-send", [
    "--session",
    "--print-reply",
    "--dest=org.freedesktop.secrets",
    "/org/freedesktop/secrets",
    "org.freedesktop.Secret.Service.Lock",
    "array:objpath:/org/freedesktop/secrets/collection/login",
  ]);
} else {
  const reply = execFileSync(
    "dbus-send",
    [
      "--session",
      "--print-reply",
      "--dest=org.freedesktop.DBus",
      "/org/freedesktop/DBus",
      "org.freedesktop.DBus.GetConnectionUnixProcessID",
      "string:org.freedesktop.secrets",
    ],
    { encoding: "utf8" },
  );
  const pid = Number(/uint32 (\d+)/.exec(reply)?.[1]);
  process.kill(pid, "SIGTERM");
  // Gone when no one answers the Secret Service name on this bus any more (NameHasOwner does not
  // start the daemon again), polled with a deadline instead of a fixed wait.
  const answered = () =>
    execFileSync(
      "dbus-send",
      [
        "--session",
        "--print-reply",
        "--dest=org.freedesktop.DBus",
        "/org/freedesktop/DBus",
        "org.freedesktop.DBus.NameHasOwner",
        "string:org.freedesktop.secrets",
      ],
      { encoding: "utf8" },
    ).includes("boolean true");
  const deadline = Date.now() + 10_000;
  while (answered()) {
    if (Date.now() > deadline) throw new Error("the keyring daemon still answers 10 s after SIGTERM");
    await new Promise((r) => setTimeout(r, 20));
  }
}

const after = { a: await turn(a, "second in A"), b: await turn(b, "second in B") };
const save = await call("providers.save", {
  id: "second",
  name: "Second",
  base_url: provider.baseURL,
  apiKey: "sk-test-4444444444444444444444444444kcmd",
});
const listed = await ok("providers.list");
const details = await ok("session.get", { sessionId: a });
const savedAfter = (await ok("session.messages", { sessionId: a })).messages.length;
const info = await ok("host.info");
console.log(
  `RESULT ${JSON.stringify({
    before,
    after,
    save: save.error ? { reason: save.error.data.reason, message: save.error.message } : { ok: true },
    secondListed: listed.providers.some((p: any) => p.id === "second"),
    idle: details.status === "idle" && details.runningTurnId === null,
    savedBefore,
    savedAfter,
    notices: info.notices,
  })}`,
);
await host.close();
await provider.close();
process.exit(0);
