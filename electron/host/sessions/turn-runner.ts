/**
 * Runs one turn end to end: announces it, resolves the session's frozen route plus today's
 * fallbacks, fires `pre_llm_call`, runs the agent loop, fires `post_llm_call` after a final reply,
 * and always announces how it finished — whatever failed on the way.
 */
import type { Clock } from "../clock.js";
import type { SettingsStore } from "../config/settings-store.js";
import type { ChatEngine } from "../llm/chat-engine.js";
import { fallbackRoutes, mainRoute, routeFor, type Route } from "../llm/route.js";
import type { AgentLog } from "../logging/agent-log.js";
import type { HookRegistry } from "../plugins/hook-registry.js";
import type { ToolRegistry } from "../plugins/tool-registry.js";
import { runAgentLoop, type AgentLoopResult } from "./agent-loop.js";
import type { SessionStore } from "./session-store.js";
import type { Transcript } from "./transcript.js";
import type { TurnOrigin } from "./turn-types.js";
import type { SessionSnapshot } from "./types.js";

export interface TurnRunnerDeps {
  engine: ChatEngine;
  hooks: HookRegistry;
  tools: ToolRegistry;
  transcript: Transcript;
  store: () => SessionStore;
  settings: SettingsStore;
  log: AgentLog;
  clock: Clock;
  maxIterations?: number;
}

export interface TurnSpec {
  sessionId: string;
  turnId: string;
  origin: TurnOrigin;
  gatewaySessionKey: string;
  /** The person's (or plugin's) message that started the turn. */
  userText: string;
  signal: AbortSignal;
  takeSteers: () => void;
}

/** The session's frozen main model, on the provider endpoint as configured now, then the fallbacks. */
export function turnRoutes(snapshot: SessionSnapshot, settings: SettingsStore): Route[] {
  const current = settings.get();
  const { provider, model } = snapshot.mainRoute;
  // A session created before any model was set adopts the main model of the moment.
  const main = provider && model ? routeFor(current, provider, model) : mainRoute(current);
  return [main, ...fallbackRoutes(current)];
}

export class TurnRunner {
  constructor(private readonly deps: TurnRunnerDeps) {}

  async run(spec: TurnSpec): Promise<AgentLoopResult> {
    const { sessionId, turnId } = spec;
    const { transcript } = this.deps;
    transcript.emit("session.turn.started", sessionId, { turnId, origin: spec.origin });
    let result: AgentLoopResult;
    try {
      result = await this.runLoop(spec);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.deps.log.write("ERROR", "chat_turn_failed", { session: sessionId, turn: turnId, error: message });
      this.recordFailure(spec, message);
      result = { status: "error", error: message, reply: "" };
    }
    transcript.emit("session.turn.finished", sessionId, {
      turnId,
      status: result.status,
      ...(result.error !== undefined ? { error: result.error } : {}),
    });
    return result;
  }

  private async runLoop(spec: TurnSpec): Promise<AgentLoopResult> {
    const { sessionId, turnId, gatewaySessionKey } = spec;
    const session = this.deps.store().getSession(sessionId);
    if (!session) throw new Error(`The session ${sessionId} no longer exists.`);
    const routes = turnRoutes(session.snapshot, this.deps.settings);
    await this.deps.hooks.fire("pre_llm_call", { sessionId, gatewaySessionKey, userMessage: spec.userText });
    const result = await runAgentLoop(this.deps, {
      sessionId,
      turnId,
      gatewaySessionKey,
      snapshot: session.snapshot,
      routes,
      signal: spec.signal,
      takeSteers: spec.takeSteers,
    });
    if (result.status === "ok") {
      await this.deps.hooks.fire("post_llm_call", {
        sessionId,
        gatewaySessionKey,
        // Side questions (SPEC §7.3) hand out tokens once that feature exists; until then none.
        sideQuestionToken: null,
        reviewSignals: {},
        reply: result.reply,
      });
    }
    return result;
  }

  /** Shows the failure in the transcript when the store still takes writes. */
  private recordFailure(spec: TurnSpec, message: string): void {
    try {
      this.deps.transcript.append({
        sessionId: spec.sessionId,
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
