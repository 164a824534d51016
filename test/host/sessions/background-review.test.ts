/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results and event payloads are read as plain JSON here. */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { startSessionRig, type SessionRig } from "./support/session-rig.js";

let rig: SessionRig;
afterEach(async () => rig.dispose());

const REVIEW_SYSTEM = "You review a conversation";
const reviewRequests = () =>
  rig.main.requests.filter((r) => (r.body as any)?.messages?.[0]?.content?.startsWith(REVIEW_SYSTEM));

async function start(interval: number) {
  rig = await startSessionRig({
    configure: (doc) => {
      doc.memory = { note: "Likes tea.", nudge_interval: interval };
    },
  });
  const signals: any[] = [];
  rig.host.pluginRegistries.hooks.register("probe", "post_llm_call", (p) => {
    signals.push(p.reviewSignals);
  });
  const { sessionId } = await rig.ok("session.create", {});
  return { sessionId, signals };
}

/** Runs the scripted step right after the turn's own model request, before the review starts. */
function afterTurnRequest(step: () => void) {
  const off = rig.host.pluginRegistries.hooks.register("probe", "post_api_request", () => {
    off();
    step();
  });
}

async function turn(sessionId: string, text: string) {
  await rig.ok("session.send", { sessionId, text });
  await rig.idle(sessionId);
  await rig.host.sessions.settled();
}

const proposals = (sessionId: string) =>
  rig.host.sessions.messages(sessionId).filter((m) => m.meta.notice === "memory_proposal");

describe("background review", () => {
  it("runs every N person turns on the background_review slot, proposes, and accept appends to Memory", async () => {
    const { sessionId, signals } = await start(2);
    await turn(sessionId, "I am Ada and I write Rust at work.");
    expect(reviewRequests()).toHaveLength(0);
    afterTurnRequest(() =>
      rig.main.enqueue({
        kind: "json",
        value: { additions: ["Name: Ada", "Writes Rust at work", "likes tea.", "Name: Ada"] },
      }),
    );
    await turn(sessionId, "Thanks!");
    expect(await rig.host.sessions.backgroundWork.waitIdle(sessionId, 10_000)).toBe("idle");
    expect(signals).toEqual([{ memoryReviewDue: false }, { memoryReviewDue: true }]);

    const [request] = reviewRequests() as any[];
    expect(request.body.stream).toBeFalsy();
    expect(request.body.response_format).toEqual({ type: "json_object" });
    expect(request.body.messages[1].content).toContain("Current Memory note:\nLikes tea.");
    expect(request.body.messages[1].content).toContain("User: I am Ada and I write Rust at work.");
    const rows = (await rig.ok("session.usage", { sessionId })).rows.map((r: any) => r.category);
    expect(rows).toContain("background_review");

    // What the note already holds and repeats are dropped.
    const [proposal] = proposals(sessionId);
    expect(proposal!.meta.proposal).toEqual({
      additions: ["Name: Ada", "Writes Rust at work"],
      state: "pending",
    });
    const accepted = await rig.ok("memory.review.accept", { sessionId, messageId: proposal!.id });
    expect(accepted.note).toBe("Likes tea.\n- Name: Ada\n- Writes Rust at work");
    expect(rig.host.settings.get().memory.note).toBe(accepted.note);
    expect(proposals(sessionId)[0]!.meta.proposal).toMatchObject({ state: "accepted" });
    // The proposal is a notice: never part of what the model reads.
    await turn(sessionId, "Next");
    const last = rig.main.requests.filter((r) => (r.body as any).stream).at(-1)!.body as any;
    expect(JSON.stringify(last.messages)).not.toContain("Proposed additions");

    const again = await rig.call("memory.review.accept", { sessionId, messageId: proposal!.id });
    expect(again.error?.data.reason).toBe("invalid_params");
    expect(again.error?.message).toContain("already accepted");
  });

  it("dismiss leaves Memory as it was; an unknown message is refused", async () => {
    const { sessionId } = await start(1);
    afterTurnRequest(() =>
      rig.main.enqueue({ kind: "json", value: { additions: ["Prefers short answers"] } }),
    );
    await turn(sessionId, "Keep answers short please.");
    expect(await rig.host.sessions.backgroundWork.waitIdle(sessionId, 10_000)).toBe("idle");
    const [proposal] = proposals(sessionId);
    await rig.ok("memory.review.dismiss", { sessionId, messageId: proposal!.id });
    expect(proposals(sessionId)[0]!.meta.proposal).toMatchObject({ state: "dismissed" });
    expect(rig.host.settings.get().memory.note).toBe("Likes tea.");
    const unknown = await rig.call("memory.review.dismiss", { sessionId, messageId: "nope" });
    expect(unknown.error?.data.reason).toBe("invalid_params");
    expect(unknown.error?.message).toContain("not a Memory proposal");
  });

  it("a person's next turn cancels a running review: nothing is proposed", async () => {
    const { sessionId } = await start(1);
    afterTurnRequest(() => rig.main.fault({ kind: "stall", afterChunks: 0 }));
    await rig.ok("session.send", { sessionId, text: "Remember that I use Vim." });
    await rig.idle(sessionId);
    await rig.waitForEvent("session.turn.finished");
    await expect.poll(() => reviewRequests().length).toBe(1);
    expect(rig.host.sessions.backgroundWork.list(sessionId).map((j) => j.kind)).toEqual([
      "background_review",
    ]);

    rig.main.enqueue("Sure.", { kind: "json", value: { additions: [] } });
    await rig.ok("session.send", { sessionId, text: "Another question" });
    await rig.idle(sessionId);
    expect(await rig.host.sessions.backgroundWork.waitIdle(sessionId, 10_000)).toBe("idle");
    expect(proposals(sessionId)).toEqual([]);
    expect(readFileSync(rig.host.log.file, "utf8")).not.toContain("background_review_failed");
  });

  it("nudge_interval 0 turns the review off; plugin turns do not count", async () => {
    const { sessionId, signals } = await start(0);
    await turn(sessionId, "One");
    await turn(sessionId, "Two");
    expect(signals).toEqual([{ memoryReviewDue: false }, { memoryReviewDue: false }]);
    expect(reviewRequests()).toHaveLength(0);

    const bad = await rig.call("settings.set", { key: "memory.nudge_interval", value: -1 });
    expect(bad.error?.data.reason).toBe("invalid_params");
    expect(bad.error?.message).toContain("memory.nudge_interval");

    await rig.ok("settings.set", { key: "memory.nudge_interval", value: 3 });
    expect(rig.host.sessions.inject(sessionId, "from a plugin", "p")).toBe(true);
    await rig.idle(sessionId);
    expect(signals.at(-1)).toEqual({ memoryReviewDue: false });
    rig.main.enqueue("ok", { kind: "json", value: { additions: [] } });
    await turn(sessionId, "Three");
    expect(signals.at(-1)).toEqual({ memoryReviewDue: true });
  });
});
