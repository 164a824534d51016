/**
 * Busy input (SPEC §9.2): what a message does when its session already runs a turn.
 * - queue: waits, then runs as its own turn, in arrival order;
 * - steer: enters the running turn before its next model request; one that arrives after the
 *   last step runs as the next turn (never dropped, never reported queued);
 * - interrupt: stops the running request and runs next, ahead of anything queued.
 * With no running turn every message simply starts one. A waiting message is in the transcript
 * at once (marked `pending`, with its disposition) and moves to the end when it enters the
 * conversation, so the model reads turns in the order they ran.
 */
import { randomUUID } from "node:crypto";
import type { AgentLoopResult } from "./agent-loop.js";
import type { Transcript } from "./transcript.js";
import type { TurnRunner } from "./turn-runner.js";
import type { BusyInputMode, SendResult, TurnOrigin } from "./turn-types.js";
import type { MessageDisposition } from "./types.js";

export interface IncomingMessage {
  sessionId: string;
  text: string;
  mode: BusyInputMode;
  origin: TurnOrigin;
  gatewaySessionKey: string;
}

interface Waiting {
  kind: "queued" | "steer" | "redirect";
  messageId: string;
  text: string;
  turnId: string;
  origin: TurnOrigin;
  gatewaySessionKey: string;
}

interface Running {
  turnId: string;
  abort: AbortController;
  done: Promise<void>;
}

interface Lane {
  running: Running | null;
  waiting: Waiting[];
}

export type TurnFinished = (
  sessionId: string,
  turn: { turnId: string; origin: TurnOrigin; gatewaySessionKey: string },
  result: AgentLoopResult,
) => void;

export class BusyInput {
  private readonly lanes = new Map<string, Lane>();

  constructor(
    private readonly runner: TurnRunner,
    private readonly transcript: Transcript,
    private readonly onFinished: TurnFinished = () => undefined,
  ) {}

  send(message: IncomingMessage): SendResult {
    const lane = this.lane(message.sessionId);
    const running = lane.running;
    if (!running) {
      const turnId = randomUUID();
      this.appendUser(message, turnId, "started", false);
      this.start(message.sessionId, { ...message, turnId });
      return { turnId, disposition: "started" };
    }
    if (message.mode === "steer") {
      const id = this.appendUser(message, running.turnId, "steered", true);
      lane.waiting.push({ ...this.waiting(message, id, running.turnId), kind: "steer" });
      return { turnId: running.turnId, disposition: "steered" };
    }
    const turnId = randomUUID();
    if (message.mode === "interrupt") {
      const id = this.appendUser(message, turnId, "redirected", true);
      lane.waiting.unshift({ ...this.waiting(message, id, turnId), kind: "redirect" });
      running.abort.abort();
      return { turnId, disposition: "redirected" };
    }
    const id = this.appendUser(message, turnId, "queued", true);
    lane.waiting.push({ ...this.waiting(message, id, turnId), kind: "queued" });
    return { turnId, disposition: "queued" };
  }

  /** Starts a turn on a user message already in the transcript (regenerate). */
  rerun(
    sessionId: string,
    turnId: string,
    text: string,
    origin: TurnOrigin,
    gatewaySessionKey: string,
  ): void {
    if (this.isRunning(sessionId)) throw new Error("A turn is already running in this session.");
    this.start(sessionId, { turnId, text, origin, gatewaySessionKey });
  }

  isRunning(sessionId: string): boolean {
    return this.lanes.get(sessionId)?.running != null;
  }

  runningTurnId(sessionId: string): string | null {
    return this.lanes.get(sessionId)?.running?.turnId ?? null;
  }

  waitingCount(sessionId: string): number {
    return this.lanes.get(sessionId)?.waiting.length ?? 0;
  }

  /** Stops the running request; what waits still runs afterwards (nothing a person sent is dropped). */
  stop(sessionId: string): void {
    this.lanes.get(sessionId)?.running?.abort.abort();
  }

  /** Stops everything of a session that is going away; resolves when its turn has ended. */
  async forget(sessionId: string): Promise<void> {
    const lane = this.lanes.get(sessionId);
    if (!lane) return;
    lane.waiting = [];
    lane.running?.abort.abort();
    await lane.running?.done;
    this.lanes.delete(sessionId);
  }

  async close(): Promise<void> {
    await Promise.all([...this.lanes.keys()].map((id) => this.forget(id)));
  }

  /** Resolves when the session has nothing running and nothing waiting. */
  async idle(sessionId: string): Promise<void> {
    for (;;) {
      const running = this.lanes.get(sessionId)?.running;
      if (!running) return;
      await running.done;
    }
  }

  private start(
    sessionId: string,
    turn: { turnId: string; text: string; origin: TurnOrigin; gatewaySessionKey: string },
  ): void {
    const lane = this.lane(sessionId);
    const abort = new AbortController();
    const running: Running = { turnId: turn.turnId, abort, done: Promise.resolve() };
    lane.running = running;
    running.done = this.runner
      .run({
        sessionId,
        turnId: turn.turnId,
        origin: turn.origin,
        gatewaySessionKey: turn.gatewaySessionKey,
        userText: turn.text,
        signal: abort.signal,
        takeSteers: () => this.takeSteers(sessionId, turn.turnId),
      })
      .then((result) => {
        lane.running = null;
        try {
          this.onFinished(sessionId, turn, result);
        } catch {
          // Follow-up work (a title) must never hold up what waits.
        }
        this.next(sessionId);
      });
  }

  private next(sessionId: string): void {
    const lane = this.lanes.get(sessionId);
    const item = lane?.waiting.shift();
    if (!item) return;
    try {
      // A steer that missed the last step becomes a turn of its own, with a turn id of its own.
      const turnId = item.kind === "steer" ? randomUUID() : item.turnId;
      this.transcript.moveToEnd(item.messageId, {
        turnId,
        meta: { pending: null, ...(item.kind === "steer" ? { steerRanAsTurn: true } : {}) },
      });
      this.start(sessionId, { ...item, turnId });
    } catch {
      // The message is gone (session deleted, store failing): try the next one.
      this.next(sessionId);
    }
  }

  private takeSteers(sessionId: string, turnId: string): void {
    const lane = this.lanes.get(sessionId);
    if (!lane) return;
    const steers = lane.waiting.filter((w) => w.kind === "steer" && w.turnId === turnId);
    if (steers.length === 0) return;
    lane.waiting = lane.waiting.filter((w) => !steers.includes(w));
    for (const steer of steers) this.transcript.moveToEnd(steer.messageId, { meta: { pending: null } });
  }

  private appendUser(
    message: IncomingMessage,
    turnId: string,
    disposition: MessageDisposition,
    pending: boolean,
  ): string {
    const record = this.transcript.append({
      sessionId: message.sessionId,
      turnId,
      role: "user",
      content: message.text,
      meta: {
        disposition,
        origin: message.origin,
        ...(pending ? { pending: true } : {}),
      },
    });
    return record.id;
  }

  private waiting(message: IncomingMessage, messageId: string, turnId: string): Omit<Waiting, "kind"> {
    return {
      messageId,
      text: message.text,
      turnId,
      origin: message.origin,
      gatewaySessionKey: message.gatewaySessionKey,
    };
  }

  private lane(sessionId: string): Lane {
    let lane = this.lanes.get(sessionId);
    if (!lane) this.lanes.set(sessionId, (lane = { running: null, waiting: [] }));
    return lane;
  }
}
