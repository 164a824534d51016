import { describe, expect, it } from "vitest";
import { ManualClock } from "../../fixtures/manual-clock.js";
import { BackgroundWork } from "../../../electron/host/sessions/background/background-work.js";

/** A job that ends when `end()` is called; `cancel` records its reason and ends it. */
function job(work: BackgroundWork, sessionId: string, kind: "fork" | "background_review" = "fork") {
  let end!: () => void;
  const settled = new Promise<void>((resolve) => (end = resolve));
  const reasons: string[] = [];
  const id = work.register({
    sessionId,
    kind,
    pluginId: kind === "fork" ? "action-items" : null,
    cancel: (reason) => {
      reasons.push(reason);
      end();
    },
    settled,
  });
  return { id, end, reasons, settled };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("background work registry", () => {
  it("lists running jobs per session and drops them once they settle", async () => {
    const work = new BackgroundWork(new ManualClock());
    const a = job(work, "s1");
    job(work, "s1", "background_review");
    job(work, "s2");
    expect(work.list("s1").map((j) => j.kind)).toEqual(["fork", "background_review"]);
    expect(work.list()).toHaveLength(3);
    expect(work.list("s1")[0]).toMatchObject({ id: a.id, pluginId: "action-items", sessionId: "s1" });
    a.end();
    await flush();
    expect(work.list("s1").map((j) => j.kind)).toEqual(["background_review"]);
    expect(work.isBusy("s1")).toBe(true);
  });

  it("cancelAll stops every job of that session only, with the reason, and waits for them", async () => {
    const work = new BackgroundWork(new ManualClock());
    const a = job(work, "s1");
    const b = job(work, "s1", "background_review");
    const other = job(work, "s2");
    expect(await work.cancelAll("s1", "next_person_turn")).toBe(2);
    expect(a.reasons).toEqual(["next_person_turn"]);
    expect(b.reasons).toEqual(["next_person_turn"]);
    expect(other.reasons).toEqual([]);
    expect(work.isBusy("s1")).toBe(false);
    expect(work.isBusy("s2")).toBe(true);
    expect(await work.cancelAll("nothing-here", "x")).toBe(0);
  });

  it("a job whose cancel throws or whose promise rejects still leaves the registry", async () => {
    const work = new BackgroundWork(new ManualClock());
    let fail!: (e: Error) => void;
    work.register({
      sessionId: "s1",
      kind: "fork",
      pluginId: "p",
      cancel: () => {
        fail(new Error("boom"));
        throw new Error("cancel broke");
      },
      settled: new Promise((_, reject) => (fail = reject)),
    });
    await work.cancelAll("s1", "next_person_turn");
    expect(work.list()).toEqual([]);
  });

  it("waitIdle: idle at once, idle when the work ends, timeout on the injected clock, aborted by a signal", async () => {
    const clock = new ManualClock();
    const work = new BackgroundWork(clock);
    expect(await work.waitIdle("s1", 1000)).toBe("idle");

    const a = job(work, "s1");
    const waiting = work.waitIdle("s1", 120_000);
    // Work that starts while waiting is waited for too.
    const b = job(work, "s1");
    a.end();
    await flush();
    let outcome: string | null = null;
    void waiting.then((o) => (outcome = o));
    await flush();
    expect(outcome).toBeNull();
    b.end();
    expect(await waiting).toBe("idle");

    job(work, "s1");
    const timed = work.waitIdle("s1", 120_000);
    clock.advance(119_999);
    await flush();
    let early: string | null = null;
    void timed.then((o) => (early = o));
    await flush();
    expect(early).toBeNull();
    clock.advance(1);
    expect(await timed).toBe("timeout");

    const abort = new AbortController();
    const aborted = work.waitIdle("s1", 120_000, abort.signal);
    abort.abort();
    expect(await aborted).toBe("aborted");
    expect(await work.waitIdle("s1", 10, abort.signal)).toBe("aborted");
  });
});
