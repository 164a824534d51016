/**
 * One call on an auxiliary slot (docs/contract.md §5.3, §6.4, §9.1): the route resolved now, from the settings
 * of this moment; `pre_auxiliary_call` / `post_auxiliary_call` around the request with `auxTask`
 * and `pluginId`; usage billed to the session under the slot's category. The body is the side
 * task's own — a conversation's temperature or reasoning settings never reach it.
 */
import type { HookPayloads } from "../../../plugins/sdk/types.js";
import type { ChatEngine, ChatOutcome } from "./chat-engine.js";
import type { ChatBody } from "./chat-request.js";
import type { Route } from "./route.js";
import type { Usage } from "./usage.js";

/** The hooks fired around the call; the plugin runtime's HookRegistry is one. */
export interface AuxiliaryCallHooks {
  fire<H extends "pre_auxiliary_call" | "post_auxiliary_call">(
    name: H,
    payload: HookPayloads[H],
  ): Promise<unknown>;
}

export interface AuxiliaryCallDeps {
  /** The slot's route, resolved from the settings of this moment (models/auxiliary-route.ts). */
  routeFor(task: string): Route;
  engine: Pick<ChatEngine, "complete">;
  hooks: AuxiliaryCallHooks;
  /** Bills usage to a session; a failure to bill never fails the call. */
  bill: (sessionId: string, category: string, usage: Usage) => void;
}

export interface AuxiliaryCallScope {
  task: string;
  sessionId?: string;
  gatewaySessionKey?: string;
  /** The plugin the call is made for; null for the app's own features. */
  pluginId?: string | null;
  /** The usage category; the slot's key unless given (`plugin_llm:<id>` for ctx.llm). */
  category?: string;
  signal?: AbortSignal;
}

/** The model's answer, with the provider that gave it (for the transcript's marks). */
export type AuxiliaryOutcome = ChatOutcome & { providerId: string };

export class AuxiliaryCaller {
  constructor(private readonly deps: AuxiliaryCallDeps) {}

  async complete(scope: AuxiliaryCallScope, body: ChatBody): Promise<AuxiliaryOutcome> {
    const route = this.deps.routeFor(scope.task);
    const hookScope = {
      ...(scope.sessionId !== undefined && { sessionId: scope.sessionId }),
      ...(scope.gatewaySessionKey !== undefined && { gatewaySessionKey: scope.gatewaySessionKey }),
      auxTask: scope.task,
      pluginId: scope.pluginId ?? null,
    };
    await this.deps.hooks.fire("pre_auxiliary_call", hookScope);
    const outcome = await this.deps.engine.complete(route, body, {
      timeoutMs: (route.timeoutSeconds ?? 30) * 1000,
      ...(scope.signal ? { signal: scope.signal } : {}),
    });
    if (scope.sessionId) {
      try {
        this.deps.bill(scope.sessionId, scope.category ?? scope.task, outcome.usage);
      } catch {
        // Billing is bookkeeping; the caller still gets its answer.
      }
    }
    await this.deps.hooks.fire("post_auxiliary_call", { ...hookScope, usage: outcome.usage });
    return { ...outcome, providerId: route.providerId };
  }
}
