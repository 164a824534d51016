/**
 * Busy input (docs/contract.md §9.2): what a message does when its session already runs a turn.
 * - queue: waits, then runs as its own turn, in arrival order;
 * - steer: enters the running turn before its next model request; steers that arrive after the
 *   last step run together as the very next turn (never dropped, never reported queued);
 * - interrupt: stops the running request and runs next, ahead of late steers and the queue
 *   (several interrupts keep their arrival order).
 * With no running turn every message simply starts one. A waiting message is in the transcript
 * at once (marked `pending`, with its disposition) and moves to the end when it enters the
 * conversation, so the model reads turns in the order they ran.
 */
import { randomUUID } from "node:crypto";
import type { AgentLoopResult } from "../turns/agent-loop.js";
import type { PersistMessage, Transcript } from "../turns/transcript.js";
import type { TurnRunner } from "../turns/turn-runner.js";
import {
  HostShutdownAbort,
  type BusyInputMode,
  type SendResult,
  type TurnOrigin,
} from "../turns/turn-types.js";
import type { ImageAttachment } from "./image-attachments.js";
import { InjectedTurnWait, type BackgroundWaiter } from "./injected-turn-wait.js";
import type { JsonValue, MessageDisposition, SessionRecord } from "../store/types.js";

const imagesMeta = (message: IncomingMessage): { images?: JsonValue } =>
  message.images?.length ? { images: message.images as unknown as JsonValue } : {};

export interface IncomingMessage {
  /** The session as read when the message arrived. */
  session: SessionRecord;
  text: string;
  /**
   * What to do if a turn is running; a function is asked only then (the settings read behind it
   * checks config.yaml on disk, which a message to an idle session need not wait for).
   */
  mode: BusyInputMode | (() => BusyInputMode);
  origin: TurnOrigin;
  gatewaySessionKey: string;
  /** Checked images that go with the message (docs/contract.md §9.1), kept in its meta. */
  images?: ImageAttachment[];
}

interface Waiting {
  kind: "queued" | "steer" | "redirect";
  messageId: string;
  text: string;
  turnId: string;
  origin: TurnOrigin;
  gatewaySessionKey: string;
  session: SessionRecord;
}

interface Running {
  turnId: string;
  abort: AbortController;
  done: Promise<void>;
  /** A plugin's injected turn waiting for the session's background work (docs/contract.md §9.3). */
  injectedWait?: InjectedTurnWait;
}

interface Lane {
  running: Running | null;
  waiting: Waiting[];
}

interface TurnStart {
  session: SessionRecord;
  turnId: string;
  text: string;
  /** The message that starts the turn, when it is in the transcript (an injected turn marks it while it waits). */
  messageId?: string;
  origin: TurnOrigin;
  gatewaySessionKey: string;
  unsettledUserMessageId?: string;
  /** Makes the announced message that starts the turn durable (`Transcript.announceUser`). */
  persistUser?: PersistMessage;
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
    /** The sessions' background work an injected turn waits for; without it, it waits for nothing. */
    private readonly background?: BackgroundWaiter,
  ) {}

  send(message: IncomingMessage): SendResult {
    const lane = this.lane(message.session.id);
    const running = lane.running;
    if (!running) {
      const turnId = randomUUID();
      // Announced now, written while the turn's request is in flight (always before its first
      // token), indexed once the reply starts: nothing stands between the send and the request.
      const { record, persist } = this.transcript.announceUser({
        sessionId: message.session.id,
        turnId,
        role: "user",
        content: message.text,
        meta: { disposition: "started", origin: message.origin, ...imagesMeta(message) },
      });
      this.start({
        ...message,
        turnId,
        unsettledUserMessageId: record.id,
        messageId: record.id,
        persistUser: persist,
      });
      return { turnId, disposition: "started" };
    }
    const mode = typeof message.mode === "function" ? message.mode() : message.mode;
    const injectedWait = running.injectedWait?.pending ? running.injectedWait : undefined;
    // Any message of a person ends an injected turn's wait; another plugin's does not (docs/contract.md §9.3).
    if (message.origin === "person") injectedWait?.endForPerson();
    if (injectedWait && message.origin === "person" && mode === "interrupt") {
      // The injected turn has asked nothing yet: the redirect goes into it, as a steer does.
      this.wait(lane, message, running.turnId, "steer", "redirected");
      return { turnId: running.turnId, disposition: "redirected" };
    }
    if (mode === "steer") {
      this.wait(lane, message, running.turnId, "steer", "steered");
      return { turnId: running.turnId, disposition: "steered" };
    }
    const turnId = randomUUID();
    if (mode === "interrupt") {
      this.wait(lane, message, turnId, "redirect", "redirected");
      running.abort.abort();
      return { turnId, disposition: "redirected" };
    }
    this.wait(lane, message, turnId, "queued", "queued");
    return { turnId, disposition: "queued" };
  }

  /** Starts a turn on a user message already in the transcript (regenerate). */
  rerun(
    session: SessionRecord,
    turnId: string,
    text: string,
    origin: TurnOrigin,
    gatewaySessionKey: string,
  ): void {
    if (this.isRunning(session.id)) throw new Error("A turn is already running in this session.");
    this.start({ session, turnId, text, origin, gatewaySessionKey });
  }

  isRunning(sessionId: string): boolean {
    return this.lanes.get(sessionId)?.running != null;
  }

  /** Whether a turn runs in any session. */
  anyRunning(): boolean {
    for (const lane of this.lanes.values()) if (lane.running) return true;
    return false;
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

  /**
   * Stops everything of a session; resolves when its turn has ended. What waited stays in the
   * transcript as `pending`, which the next open marks not sent.
   */
  async forget(sessionId: string, reason?: Error): Promise<void> {
    const lane = this.lanes.get(sessionId);
    if (!lane) return;
    lane.waiting = [];
    lane.running?.abort.abort(reason);
    await lane.running?.done;
    this.lanes.delete(sessionId);
  }

  /** Host shutdown: running replies are kept as `interrupted`, as after a crash. */
  async close(): Promise<void> {
    await Promise.all([...this.lanes.keys()].map((id) => this.forget(id, new HostShutdownAbort())));
  }

  /** Resolves when the session has nothing running and nothing waiting. */
  async idle(sessionId: string): Promise<void> {
    for (;;) {
      const running = this.lanes.get(sessionId)?.running;
      if (!running) return;
      await running.done;
    }
  }

  private start(turn: TurnStart): void {
    const sessionId = turn.session.id;
    const lane = this.lane(sessionId);
    const abort = new AbortController();
    const running: Running = { turnId: turn.turnId, abort, done: Promise.resolve() };
    if (turn.origin !== "person" && this.background) {
      const wait = new InjectedTurnWait(this.background, sessionId, (waiting) =>
        this.markWaiting(turn.messageId, waiting),
      );
      // A person's message already waiting behind this turn ends its wait before it begins.
      if (lane.waiting.some((w) => w.origin === "person")) wait.endForPerson();
      running.injectedWait = wait;
    }
    lane.running = running;
    running.done = this.runner
      .run({
        session: turn.session,
        turnId: turn.turnId,
        origin: turn.origin,
        gatewaySessionKey: turn.gatewaySessionKey,
        userText: turn.text,
        ...(turn.unsettledUserMessageId ? { unsettledUserMessageId: turn.unsettledUserMessageId } : {}),
        ...(turn.persistUser ? { persistUser: turn.persistUser } : {}),
        signal: abort.signal,
        takeSteers: () => this.takeSteers(sessionId, turn.turnId),
        ...(running.injectedWait && {
          beforeRun: async () => void (await running.injectedWait?.run(abort.signal)),
        }),
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

  /** Runs what waits: interrupts first, then the steers that missed their turn (as one turn), then the queue. */
  private next(sessionId: string): void {
    const lane = this.lanes.get(sessionId);
    if (!lane || lane.waiting.length === 0) return;
    const redirect = lane.waiting.find((w) => w.kind === "redirect");
    const batch = redirect
      ? [redirect]
      : lane.waiting.some((w) => w.kind === "steer")
        ? lane.waiting.filter((w) => w.kind === "steer")
        : lane.waiting.slice(0, 1);
    lane.waiting = lane.waiting.filter((w) => !batch.includes(w));
    const first = batch[0] as Waiting;
    // A steer that missed the last step becomes a turn of its own, with a turn id of its own.
    const lateSteers = first.kind === "steer";
    const turnId = lateSteers ? randomUUID() : first.turnId;
    const entered: Waiting[] = [];
    for (const item of batch) {
      try {
        this.transcript.moveToEnd(item.messageId, {
          turnId,
          meta: { pending: null, ...(lateSteers ? { steerRanAsTurn: true } : {}) },
        });
        entered.push(item);
      } catch {
        // The message is gone (session deleted, store failing): the others still run.
      }
    }
    if (entered.length === 0) return this.next(sessionId);
    this.start({ ...first, turnId, text: entered.map((w) => w.text).join("\n\n") });
  }

  /** `waitingForBackground` on an injected turn's message while it waits (the transcript says so). */
  private markWaiting(messageId: string | undefined, waiting: boolean): void {
    if (messageId === undefined) return;
    try {
      this.transcript.update(messageId, { meta: { waitingForBackground: waiting ? true : null } });
    } catch {
      // The message is gone (chat deleted) or the store fails: the wait goes on regardless.
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

  /** Records a message that waits (in the transcript at once, marked pending) and lines it up. */
  private wait(
    lane: Lane,
    message: IncomingMessage,
    turnId: string,
    kind: Waiting["kind"],
    disposition: MessageDisposition,
  ): void {
    const record = this.transcript.append({
      sessionId: message.session.id,
      turnId,
      role: "user",
      content: message.text,
      meta: { disposition, origin: message.origin, pending: true, ...imagesMeta(message) },
    });
    const item: Waiting = {
      kind,
      messageId: record.id,
      text: message.text,
      turnId,
      origin: message.origin,
      gatewaySessionKey: message.gatewaySessionKey,
      session: message.session,
    };
    lane.waiting.push(item);
  }

  private lane(sessionId: string): Lane {
    let lane = this.lanes.get(sessionId);
    if (!lane) this.lanes.set(sessionId, (lane = { running: null, waiting: [] }));
    return lane;
  }
}
