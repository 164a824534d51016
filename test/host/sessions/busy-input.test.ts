/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results and event payloads are read as plain JSON here. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSessionRig, type SessionRig } from "./support/session-rig.js";

let rig: SessionRig;
beforeEach(async () => {
  rig = await startSessionRig();
});
afterEach(async () => rig.dispose());

const convo = (body: any) => body.messages.filter((m: any) => m.role !== "system");
const streamed = () => rig.main.requests.filter((r) => (r.body as any).stream).map((r) => r.body as any);
const transcript = async (sessionId: string) =>
  (await rig.ok("session.messages", { sessionId })).messages.map((m: any) => ({
    role: m.role,
    content: m.content,
    turnId: m.turnId,
    disposition: m.meta.disposition,
    pending: m.meta.pending,
  }));

/** Starts a turn whose reply stalls after its first words, so it stays running until stopped. */
async function runningTurn(sessionId: string, text = "First") {
  rig.main.fault({ kind: "stall", afterChunks: 2 });
  const sent = await rig.ok("session.send", { sessionId, text });
  await rig.waitForEvent("session.delta", (p) => p.turnId === sent.turnId);
  return sent.turnId as string;
}

describe("busy input", () => {
  it("queue: messages wait and run as their own turns in arrival order", async () => {
    const { sessionId } = await rig.ok("session.create", { title: "Queue" });
    const first = await runningTurn(sessionId);
    const b = await rig.ok("session.send", { sessionId, text: "Second", mode: "queue" });
    const c = await rig.ok("session.send", { sessionId, text: "Third" }); // the setting's default: queue
    expect([b.disposition, c.disposition]).toEqual(["queued", "queued"]);
    expect((await rig.ok("session.get", { sessionId })).queued).toBe(2);
    // While waiting they show in the transcript, marked, and the model does not see them.
    expect((await transcript(sessionId)).filter((m: any) => m.pending)).toHaveLength(2);
    rig.main.enqueue("Reply two", "Reply three");
    await rig.ok("session.stop", { sessionId });
    await rig.idle(sessionId);

    expect(rig.events("session.turn.started", sessionId).map((e) => e.turnId)).toEqual([
      first,
      b.turnId,
      c.turnId,
    ]);
    expect(rig.events("session.turn.finished", sessionId).map((e) => e.status)).toEqual([
      "stopped",
      "ok",
      "ok",
    ]);
    const [, second, third] = streamed();
    expect(convo(second)).toEqual([
      { role: "user", content: "First" },
      { role: "assistant", content: "Echo: " },
      { role: "user", content: "Second" },
    ]);
    expect(convo(third).at(-2)).toEqual({ role: "assistant", content: "Reply two" });
    expect(await transcript(sessionId)).toEqual([
      { role: "user", content: "First", turnId: first, disposition: "started", pending: undefined },
      { role: "assistant", content: "Echo: ", turnId: first, disposition: undefined, pending: undefined },
      { role: "user", content: "Second", turnId: b.turnId, disposition: "queued", pending: undefined },
      {
        role: "assistant",
        content: "Reply two",
        turnId: b.turnId,
        disposition: undefined,
        pending: undefined,
      },
      { role: "user", content: "Third", turnId: c.turnId, disposition: "queued", pending: undefined },
      {
        role: "assistant",
        content: "Reply three",
        turnId: c.turnId,
        disposition: undefined,
        pending: undefined,
      },
    ]);
  });

  it("steer: enters the running turn at its next step, after the tool results", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    rig.host.pluginRegistries.tools.register({
      pluginId: "kit",
      name: "measure",
      toolset: "kit",
      description: "measures slowly",
      parameters: { type: "object" },
      handler: async () => (await gate, "12 inches"),
    });
    rig.main.enqueue(
      { kind: "tool_calls", toolCalls: [{ id: "m1", name: "measure", arguments: {} }] },
      "30.48 cm",
    );
    const { sessionId } = await rig.ok("session.create", { title: "Steer" });
    const { turnId } = await rig.ok("session.send", { sessionId, text: "How long is it?" });
    await rig.waitForEvent("session.message", (p) => p.message.meta.toolCalls?.length === 1);
    const steer = await rig.ok("session.send", { sessionId, text: "/steer use metric units", mode: "queue" });
    expect(steer).toEqual({ turnId, disposition: "steered" });
    release();
    await rig.idle(sessionId);

    expect(rig.events("session.turn.started", sessionId)).toHaveLength(1);
    expect(convo(streamed()[1]).slice(-2)).toEqual([
      { role: "tool", tool_call_id: "m1", content: "12 inches" },
      { role: "user", content: "use metric units" },
    ]);
    const roles = (await transcript(sessionId)).map((m: any) => [m.role, m.disposition ?? null]);
    expect(roles).toEqual([
      ["user", "started"],
      ["assistant", null],
      ["tool", null],
      ["user", "steered"],
      ["assistant", null],
    ]);
  });

  it("steer after the last step runs as the next turn; with nothing running it starts one", async () => {
    const { sessionId } = await rig.ok("session.create", { title: "Late steer" });
    const idleSteer = await rig.ok("session.send", { sessionId, text: "Hello", mode: "steer" });
    expect(idleSteer.disposition).toBe("started");
    await rig.idle(sessionId);

    rig.main.enqueue(
      { kind: "text", content: "a slow final answer that takes a while", tokensPerSecond: 40 },
      "Noted.",
    );
    const final = await rig.ok("session.send", { sessionId, text: "Answer slowly" });
    await rig.waitForEvent("session.delta", (p) => p.turnId === final.turnId);
    const late = await rig.ok("session.send", { sessionId, text: "also add a summary", mode: "steer" });
    expect(late).toEqual({ turnId: final.turnId, disposition: "steered" });
    await rig.idle(sessionId);

    const started = rig.events("session.turn.started", sessionId).map((e) => e.turnId);
    expect(started).toHaveLength(3);
    expect(started[1]).toBe(final.turnId);
    const spilled = (await rig.ok("session.messages", { sessionId })).messages.find(
      (m: any) => m.content === "also add a summary",
    );
    expect(spilled.turnId).toBe(started[2]);
    expect(spilled.meta).toMatchObject({ disposition: "steered", steerRanAsTurn: true });
    expect(convo(streamed().at(-1)).at(-1)).toEqual({ role: "user", content: "also add a summary" });
  });

  it("interrupt: stops the running request and redirects ahead of what was queued", async () => {
    const { sessionId } = await rig.ok("session.create", { title: "Interrupt" });
    const first = await runningTurn(sessionId);
    const queued = await rig.ok("session.send", { sessionId, text: "Later", mode: "queue" });
    rig.main.enqueue("Redirected reply", "Later reply");
    const redirect = await rig.ok("session.send", {
      sessionId,
      text: "No, do this instead",
      mode: "interrupt",
    });
    expect(redirect.disposition).toBe("redirected");
    await rig.idle(sessionId);
    expect(rig.events("session.turn.started", sessionId).map((e) => e.turnId)).toEqual([
      first,
      redirect.turnId,
      queued.turnId,
    ]);
    expect(rig.events("session.turn.finished", sessionId)[0]).toEqual({ turnId: first, status: "stopped" });
    const dispositions = (await transcript(sessionId))
      .filter((m: any) => m.role === "user")
      .map((m: any) => m.disposition);
    expect(dispositions).toEqual(["started", "redirected", "queued"]);
  });

  it("follows display.busy_input_mode, and session.send's mode overrides it", async () => {
    rig.host.settings.set("display.busy_input_mode", "steer");
    const { sessionId } = await rig.ok("session.create", { title: "Modes" });
    const running = await runningTurn(sessionId);
    expect(await rig.ok("session.send", { sessionId, text: "guide" })).toEqual({
      turnId: running,
      disposition: "steered",
    });
    expect((await rig.ok("session.send", { sessionId, text: "wait", mode: "queue" })).disposition).toBe(
      "queued",
    );
    rig.host.settings.set("display.busy_input_mode", "interrupt");
    rig.main.enqueue("ok 1", "ok 2", "ok 3");
    expect((await rig.ok("session.send", { sessionId, text: "now" })).disposition).toBe("redirected");
    await rig.idle(sessionId);
    // The steer missed the stopped turn's last step, so it still ran: nothing a person sent is dropped.
    const users = (await transcript(sessionId))
      .filter((m: any) => m.role === "user")
      .map((m: any) => m.content);
    expect(users).toEqual(["First", "now", "guide", "wait"]);
    expect(rig.events("session.turn.started", sessionId)).toHaveLength(4);
  });
});

describe("late steers", () => {
  it("run together as the very next turn, ahead of messages queued before them", async () => {
    const { sessionId } = await rig.ok("session.create", { title: "Late steers" });
    // The final answer streams slowly: steers sent meanwhile miss its last step.
    rig.main.enqueue({
      kind: "text",
      content: "a slow final answer that takes a while",
      tokensPerSecond: 40,
    });
    const first = await rig.ok("session.send", { sessionId, text: "Explain X" });
    await rig.waitForEvent("session.delta", (p) => p.turnId === first.turnId);
    const queued = await rig.ok("session.send", { sessionId, text: "Then explain Y", mode: "queue" });
    const s1 = await rig.ok("session.send", { sessionId, text: "/steer shorter" });
    const s2 = await rig.ok("session.send", { sessionId, text: "and in French", mode: "steer" });
    expect([s1.disposition, s2.disposition]).toEqual(["steered", "steered"]);
    rig.main.enqueue("Plus court.", "Y explained.");
    await rig.idle(sessionId);

    const started = rig.events("session.turn.started", sessionId).map((e) => e.turnId);
    expect(started).toHaveLength(3);
    expect(started[2]).toBe(queued.turnId);
    const users = (await transcript(sessionId)).filter((m: any) => m.role === "user");
    expect(users.map((m: any) => [m.content, m.turnId === started[1], m.pending])).toEqual([
      ["Explain X", false, undefined],
      ["shorter", true, undefined],
      ["and in French", true, undefined],
      ["Then explain Y", false, undefined],
    ]);
    // The steers' turn answers X's reply, before Y is asked.
    expect(convo(streamed()[1]).slice(-3)).toEqual([
      { role: "assistant", content: "a slow final answer that takes a while" },
      { role: "user", content: "shorter" },
      { role: "user", content: "and in French" },
    ]);
  });

  it("several interrupts keep their arrival order, ahead of the queue", async () => {
    const { sessionId } = await rig.ok("session.create", { title: "Interrupts" });
    await runningTurn(sessionId);
    const q = await rig.ok("session.send", { sessionId, text: "queued", mode: "queue" });
    const r1 = await rig.ok("session.send", { sessionId, text: "do A instead", mode: "interrupt" });
    const r2 = await rig.ok("session.send", { sessionId, text: "no, B", mode: "interrupt" });
    rig.main.enqueue("A", "B", "Q");
    await rig.idle(sessionId);
    expect(
      rig
        .events("session.turn.started", sessionId)
        .map((e) => e.turnId)
        .slice(1),
    ).toEqual([r1.turnId, r2.turnId, q.turnId]);
  });
});
