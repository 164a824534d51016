/**
 * Runs one turn end to end: announces it, resolves the session's frozen route plus today's
 * fallbacks, fires `pre_llm_call`, runs the agent loop, fires `post_llm_call` after a final reply,
 * and always announces how it finished — whatever failed on the way.
 */
import type { Clock } from "../../clock.js";
import type { Settings } from "../../config/config-schema.js";
import type { SettingsStore } from "../../config/settings-store.js";
import type { ChatEngine } from "../../llm/chat-engine.js";
import { fallbackRoutes, mainRoute, routeFor, type Route } from "../../llm/route.js";
import type { AgentLog } from "../../logging/agent-log.js";
import { routeIdentity, type SideQuestionLeases } from "../../plugins/capabilities/side-question-lease.js";
import type { HookRegistry } from "../../plugins/registries/hook-registry.js";
import type { ToolRegistry } from "../../plugins/registries/tool-registry.js";
import { runAgentLoop, type AgentLoopResult } from "./agent-loop.js";
import type { BackgroundReview } from "../background/background-review.js";
import type { BackgroundWork } from "../background/background-work.js";
import type { SessionStore } from "../session-store.js";
import type { DeltaFrame } from "./delta-frame.js";
import { MessageNotSavedError, type PersistMessage, type Transcript } from "./transcript.js";
import type { TurnOrigin } from "./turn-types.js";
import type { Compactor } from "./compaction.js";
import type { ExternalTools } from "./external-tools.js";
import type { ImageDescriber } from "./image-description.js";
import type { SessionRecord, SessionSnapshot } from "../store/types.js";

export interface TurnRunnerDeps {
  engine: ChatEngine;
  hooks: HookRegistry;
  tools: ToolRegistry;
  /** MCP servers' tools for chat turns (docs/contract.md §13.3). */
  external?: ExternalTools;
  transcript: Transcript;
  store: () => SessionStore;
  /** The frame every streaming reply's batches share (delta-frame.ts). */
  deltaFrame?: DeltaFrame;
  settings: SettingsStore;
  log: AgentLog;
  clock: Clock;
  compactor?: Compactor;
  imageDescriber?: ImageDescriber;
  maxIterations?: number;
  /** The session's forks and background review; a person's turn cancels them (docs/contract.md §7.4). */
  backgroundWork?: BackgroundWork;
  /** The app's own memory review every `memory.nudge_interval` person turns. */
  review?: BackgroundReview;
  /** Side-question tokens (docs/contract.md §7.3): expired at each turn start, issued after a person turn. */
  leases?: SideQuestionLeases;
}

/** The cancel reason background work gets when a person's next turn starts. */
export const NEXT_PERSON_TURN = "next_person_turn";

export interface TurnSpec {
  /** The session as read when the message arrived; its snapshot never changes. */
  session: SessionRecord;
  turnId: string;
  origin: TurnOrigin;
  gatewaySessionKey: string;
  /** The person's (or plugin's) message that started the turn. */
  userText: string;
  /** A message of `Transcript.announceUser` the turn settles once its first reply is written. */
  unsettledUserMessageId?: string;
  /**
   * Writes that message: called while the first request is in flight, and in any case before
   * anything waits (an injected turn's wait) and before the turn ends.
   */
  persistUser?: PersistMessage;
  signal: AbortSignal;
  takeSteers: () => void;
  /**
   * Runs after the turn was announced and before its first request: an injected turn waits here
   * for the session's background work (docs/contract.md §9.3).
   */
  beforeRun?: () => Promise<void>;
}

/** The session's frozen main model, on the provider endpoint as configured now, then the fallbacks. */
export function turnRoutes(snapshot: SessionSnapshot, current: Settings): Route[] {
  const { provider, model } = snapshot.mainRoute;
  // A session created before any model was set adopts the main model of the moment.
  const main = provider && model ? routeFor(current, provider, model) : mainRoute(current);
  return [main, ...fallbackRoutes(current)];
}

export class TurnRunner {
  constructor(private readonly deps: TurnRunnerDeps) {}

  async run(spec: TurnSpec): Promise<AgentLoopResult> {
    const sessionId = spec.session.id;
    const { turnId } = spec;
    const { transcript } = this.deps;
    this.deps.leases?.turnStarted(sessionId);
    // Not awaited: a person never waits for a fork to wind down (its handle settles on its own).
    if (spec.origin === "person") void this.deps.backgroundWork?.cancelAll(sessionId, NEXT_PERSON_TURN);
    transcript.emit("session.turn.started", sessionId, { turnId, origin: spec.origin });
    const settleUser = this.settlerFor(spec.unsettledUserMessageId);
    let result: AgentLoopResult;
    try {
      if (spec.beforeRun) {
        // A wait may be long: the message is not left in memory for it.
        spec.persistUser?.();
        await spec.beforeRun();
      }
      result = await this.runLoop(spec, settleUser);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.deps.log.write("ERROR", "chat_turn_failed", { session: sessionId, turn: turnId, error: message });
      // A store that refused the person's message would refuse (and hold up) this write too.
      if (!(error instanceof MessageNotSavedError)) this.recordFailure(spec, message);
      result = { status: "error", error: message, reply: "" };
    }
    try {
      // A turn that ended before any request or reply (no model set, stopped early) still owes them.
      spec.persistUser?.();
      settleUser();
    } catch {
      // The store is failing; the message is on disk and the next open settles it.
    }
    transcript.emit("session.turn.finished", sessionId, {
      turnId,
      status: result.status,
      ...(result.error !== undefined ? { error: result.error } : {}),
    });
    return result;
  }

  /** Idempotent: the first call writes, later ones (and a turn without such a message) do nothing. */
  private settlerFor(messageId: string | undefined): () => void {
    let pending = messageId;
    return () => {
      if (pending === undefined) return;
      const id = pending;
      pending = undefined;
      this.deps.transcript.settleUser(id);
    };
  }

  private async runLoop(spec: TurnSpec, settleUser: () => void): Promise<AgentLoopResult> {
    const { turnId, gatewaySessionKey, session } = spec;
    const sessionId = session.id;
    // Settings are read once per turn: the routes below carry everything the requests need. The
    // watcher tells of a hand edit, so the file is not looked at in front of every request.
    const settings = this.deps.settings.watched();
    const routes = turnRoutes(session.snapshot, settings);
    if (this.deps.hooks.count("pre_llm_call")) {
      // A plugin's hook may take its time: the message is not left in memory for it.
      spec.persistUser?.();
      await this.deps.hooks.fire("pre_llm_call", {
        sessionId,
        gatewaySessionKey,
        userMessage: spec.userText,
      });
    }
    const result = await runAgentLoop(this.deps, {
      sessionId,
      turnId,
      gatewaySessionKey,
      snapshot: session.snapshot,
      routes,
      signal: spec.signal,
      takeSteers: spec.takeSteers,
      settleUser,
      settings,
      ...(spec.persistUser ? { persistUser: spec.persistUser } : {}),
    });
    if (result.status === "ok") {
      const memoryReviewDue = this.deps.review?.isDue(sessionId, spec.origin) ?? false;
      if (memoryReviewDue) this.deps.review?.start(sessionId, gatewaySessionKey);
      const primary = routes[0];
      const sideQuestionToken =
        result.request && primary && this.deps.leases
          ? this.deps.leases.issue({
              sessionId,
              turnId,
              gatewaySessionKey,
              // Injected turns are unattended: nobody waits on them (docs/contract.md §7.3).
              attended: spec.origin === "person",
              request: result.request,
              turnRoute: routeIdentity(primary),
            })
          : null;
      await this.deps.hooks.fire("post_llm_call", {
        sessionId,
        gatewaySessionKey,
        sideQuestionToken,
        reviewSignals: { memoryReviewDue },
        reply: result.reply,
      });
    }
    return result;
  }

  /** Shows the failure in the transcript when the store still takes writes. */
  private recordFailure(spec: TurnSpec, message: string): void {
    try {
      this.deps.transcript.append({
        sessionId: spec.session.id,
        turnId: spec.turnId,
        role: "assistant",
        status: "error",
        meta: { error: message },
      });
    } catch {
      // The store itself failed (locked, gone): the finished event still carries the error.
    }
  }
}
