/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results and event payloads are read as plain JSON here. */
/**
 * Injected turns (docs/contract.md §9.3) on the real host with an injected clock: the wait of up to 120 s for
 * the session's background work and the cancel after it; a person's queued message, steer and
 * interrupt-mode redirect each end the wait at once and cancel the work as a person's turn does;
 * another plugin's message does not; queued person messages run after the injected turn in
 * arrival order; a steer or redirect goes into it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { INJECTED_TURN_WAIT_MS } from "../../../electron/host/sessions/input/injected-turn-wait.js";
import { backgroundJob } from "./support/background-job.js";
import { startSessionRig, type SessionRig } from "./support/session-rig.js";

let rig: SessionRig;
beforeEach(async () => {
  rig = await startSessionRig();
});
afterEach(async () => rig.dispose());

const streamed = () => rig.main.requests.filter((r) => (r.body as any).stream).map((r) => r.body as any);
const lastUser = (body: any) =>
  body.messages.filter((m: any) => m.role === "user").map((m: any) => m.content);
const started = (sessionId: string) => rig.events("session.turn.started", sessionId);
/** Lets the host's pending work run (provider round trips are real). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

async function injectWaiting(sessionId: string, text = "Summary from the plugin", pluginId = "notes") {
  expect(rig.host.sessions.inject(sessionId, text, pluginId)).toBe(true);
  const turn = await rig.waitForEvent("session.turn.started", (p) => p.origin === `plugin:${pluginId}`);
  return turn.turnId as string;
}

describe("the wait before an injected turn", () => {
  it("with no background work the injected turn runs at once, marked as the plugin's", async () => {
    const { sessionId } = await rig.ok("session.create", { title: "Chat" });
    await injectWaiting(sessionId, "Hello from notes");
    await rig.idle(sessionId);
    expect(streamed()).toHaveLength(1);
    const [message] = (await rig.ok("session.messages", { sessionId })).messages;
    expect(message).toMatchObject({ role: "user", content: "Hello from notes" });
    expect(message.meta.origin).toBe("plugin:notes");
    expect(rig.events("session.turn.finished", sessionId).map((e) => e.status)).toEqual(["ok"]);
  });

  it("waits for running background work and runs as soon as it finished, cancelling nothing", async () => {
    const { sessionId } = await rig.ok("session.create", { title: "Chat" });
    const job = backgroundJob(rig, sessionId);
    await injectWaiting(sessionId);
    expect((await rig.ok("session.get", { sessionId })).status).toBe("running");
    // The transcript says why nothing happens yet.
    const waiting = async () =>
      (await rig.ok("session.messages", { sessionId })).messages[0].meta.waitingForBackground ?? null;
    expect(await waiting()).toBe(true);
    rig.clock.advance(INJECTED_TURN_WAIT_MS - 1);
    await settle();
    expect(streamed()).toHaveLength(0);
    job.end();
    await rig.idle(sessionId);
    expect(streamed()).toHaveLength(1);
    expect(job.reasons).toEqual([]);
    expect(await waiting()).toBeNull();
  });

  it("after 120 s it cancels what still runs, then runs", async () => {
    const { sessionId } = await rig.ok("session.create", { title: "Chat" });
    const job = backgroundJob(rig, sessionId);
    await injectWaiting(sessionId);
    rig.clock.advance(INJECTED_TURN_WAIT_MS - 1);
    await settle();
    expect(job.reasons).toEqual([]);
    expect(streamed()).toHaveLength(0);
    rig.clock.advance(1);
    await vi.waitFor(() => expect(job.reasons).toEqual(["injected_turn_waited"]));
    await rig.idle(sessionId);
    expect(lastUser(streamed()[0])).toEqual(["Summary from the plugin"]);
    expect(rig.host.sessions.backgroundWork.isBusy(sessionId)).toBe(false);
  });

  it("Stop during the wait ends the injected turn without a request; the background work goes on", async () => {
    const { sessionId } = await rig.ok("session.create", { title: "Chat" });
    const job = backgroundJob(rig, sessionId);
    await injectWaiting(sessionId);
    await rig.ok("session.stop", { sessionId });
    await rig.idle(sessionId);
    expect(rig.events("session.turn.finished", sessionId).map((e) => e.status)).toEqual(["stopped"]);
    expect(streamed()).toHaveLength(0);
    expect(job.reasons).toEqual([]);
    job.end();
  });
});

describe("a person's message ends the wait at once", () => {
  it("queued: the work is cancelled as for a person's turn; the injected turn runs first, then the person's messages in arrival order", async () => {
    const { sessionId } = await rig.ok("session.create", { title: "Chat" });
    const job = backgroundJob(rig, sessionId);
    const injected = await injectWaiting(sessionId);
    const a = await rig.ok("session.send", { sessionId, text: "Person A", mode: "queue" });
    expect(a.disposition).toBe("queued");
    expect(job.reasons).toEqual(["next_person_turn"]);
    const b = await rig.ok("session.send", { sessionId, text: "Person B", mode: "queue" });
    await rig.idle(sessionId);
    expect(started(sessionId).map((e) => [e.turnId, e.origin])).toEqual([
      [injected, "plugin:notes"],
      [a.turnId, "person"],
      [b.turnId, "person"],
    ]);
    expect(streamed().map((body) => lastUser(body).at(-1))).toEqual([
      "Summary from the plugin",
      "Person A",
      "Person B",
    ]);
  });

  it("steer: the steer goes into the injected turn, at its first request", async () => {
    const { sessionId } = await rig.ok("session.create", { title: "Chat" });
    const job = backgroundJob(rig, sessionId);
    const injected = await injectWaiting(sessionId);
    const steer = await rig.ok("session.send", { sessionId, text: "Keep it short", mode: "steer" });
    expect(steer).toEqual({ turnId: injected, disposition: "steered" });
    expect(job.reasons).toEqual(["next_person_turn"]);
    await rig.idle(sessionId);
    expect(streamed()).toHaveLength(1);
    expect(lastUser(streamed()[0])).toEqual(["Summary from the plugin", "Keep it short"]);
    expect(started(sessionId)).toHaveLength(1);
  });

  it("interrupt: the redirect goes into the injected turn instead of stopping it", async () => {
    const { sessionId } = await rig.ok("session.create", { title: "Chat" });
    const job = backgroundJob(rig, sessionId);
    const injected = await injectWaiting(sessionId);
    const redirect = await rig.ok("session.send", { sessionId, text: "Focus on dates", mode: "interrupt" });
    expect(redirect).toEqual({ turnId: injected, disposition: "redirected" });
    expect(job.reasons).toEqual(["next_person_turn"]);
    await rig.idle(sessionId);
    expect(rig.events("session.turn.finished", sessionId).map((e) => e.status)).toEqual(["ok"]);
    expect(lastUser(streamed()[0])).toEqual(["Summary from the plugin", "Focus on dates"]);
    const marks = (await rig.ok("session.messages", { sessionId })).messages
      .filter((m: any) => m.role === "user")
      .map((m: any) => [m.content, m.meta.disposition, m.meta.pending ?? null]);
    expect(marks).toEqual([
      ["Summary from the plugin", "started", null],
      ["Focus on dates", "redirected", null],
    ]);
  });

  it("a person's message already waiting behind the injected turn ends its wait before it begins", async () => {
    const { sessionId } = await rig.ok("session.create", { title: "Chat" });
    rig.main.fault({ kind: "stall", afterChunks: 2 });
    const first = await rig.ok("session.send", { sessionId, text: "First" });
    await rig.waitForEvent("session.delta", (p) => p.turnId === first.turnId);
    const job = backgroundJob(rig, sessionId); // started during the person's turn
    expect(rig.host.sessions.inject(sessionId, "Summary from the plugin", "notes")).toBe(true);
    const later = await rig.ok("session.send", { sessionId, text: "Later", mode: "queue" });
    expect(later.disposition).toBe("queued");
    expect(job.reasons).toEqual([]);
    await rig.ok("session.stop", { sessionId });
    await rig.idle(sessionId);
    expect(job.reasons).toEqual(["next_person_turn"]);
    expect(started(sessionId).map((e) => e.origin)).toEqual(["person", "plugin:notes", "person"]);
  });

  it("with a busy turn already past its wait, a person's message follows the usual busy-input rules", async () => {
    const { sessionId } = await rig.ok("session.create", { title: "Chat" });
    rig.main.fault({ kind: "stall", afterChunks: 2 });
    const injected = await injectWaiting(sessionId);
    await rig.waitForEvent("session.delta", (p) => p.turnId === injected);
    const redirect = await rig.ok("session.send", { sessionId, text: "Stop that", mode: "interrupt" });
    expect(redirect.disposition).toBe("redirected");
    expect(redirect.turnId).not.toBe(injected);
    await rig.idle(sessionId);
    expect(rig.events("session.turn.finished", sessionId).map((e) => e.status)).toEqual(["stopped", "ok"]);
  });
});

describe("another plugin's message", () => {
  it("does not end the wait: it queues behind, and runs after the first injected turn", async () => {
    const { sessionId } = await rig.ok("session.create", { title: "Chat" });
    const job = backgroundJob(rig, sessionId);
    await injectWaiting(sessionId, "From notes", "notes");
    expect(rig.host.sessions.inject(sessionId, "From digest", "digest")).toBe(true);
    await settle();
    expect(job.reasons).toEqual([]);
    expect(streamed()).toHaveLength(0);
    rig.clock.advance(INJECTED_TURN_WAIT_MS);
    await vi.waitFor(() => expect(job.reasons).toEqual(["injected_turn_waited"]));
    await rig.idle(sessionId);
    expect(started(sessionId).map((e) => e.origin)).toEqual(["plugin:notes", "plugin:digest"]);
    expect(streamed().map((body) => lastUser(body).at(-1))).toEqual(["From notes", "From digest"]);
  });

  it("a session that does not exist is refused with false, and logged", async () => {
    expect(rig.host.sessions.inject("no-such-chat", "Hello", "notes")).toBe(false);
    expect(rig.host.sessions.inject("no-such-chat", "   ", "notes")).toBe(false);
  });
});
