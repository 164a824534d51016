/**
 * `ctx.forkSession` on the host (docs/contract.md §7.4): the checks in their order (which refusals keep the
 * turn's token and which spend it), then a background copy of the session's agent registered as
 * the session's background work, so the person's next turn cancels it. The fork replays the
 * turn's request (system prompt, tools, messages, model) byte for byte, continues it with the
 * turn's reply and the plugin's prompt, and writes nothing to the transcript. Its handle's state
 * reaches the plugin's worker through `onUpdate`.
 */
import { randomUUID } from "node:crypto";
import type { ForkOutcome } from "../../../../plugins/sdk/types.js";
import type { Clock } from "../../clock.js";
import type { Settings } from "../../config/config-schema.js";
import type { ChatMessage } from "../../llm/chat-request.js";
import type { Route } from "../../llm/route.js";
import type { Usage } from "../../llm/usage.js";
import type { AgentLog } from "../../logging/agent-log.js";
import { resolveAuxiliaryRoute } from "../../models/auxiliary-route.js";
import type { AuxiliaryTaskRegistry } from "../../models/auxiliary-tasks.js";
import { contextWindowOf, type ModelInfoCache } from "../../models/model-capabilities.js";
import type { PluginBudgets } from "../budgets/plugin-budget.js";
import type { ForkStart, ForkState } from "../runtime/boundary.js";
import { parseForkArgs, type ForkArgs } from "./fork-options.js";
import type { ForkBackgroundWork } from "./fork-loop.js";
import { runFork, type ForkRunDeps } from "./fork-run.js";
import { routeIdentity, sameRoute, type Lease, type SideQuestionLeases } from "./side-question-lease.js";

/** The default bound on a fork's input tokens: this share of the model's context window. */
export const FORK_INPUT_SHARE = 0.75;

export interface ForkServiceDeps extends Omit<ForkRunDeps, "charge"> {
  leases: Pick<SideQuestionLeases, "peek" | "spend">;
  slots: Pick<AuxiliaryTaskRegistry, "owns"> & AuxiliaryTaskRegistry;
  settings: { get(): Settings };
  budgets: Pick<PluginBudgets, "check" | "spend">;
  bill(sessionId: string, category: string, usage: Usage): void;
  backgroundWork: ForkBackgroundWork;
  /** The route the session's next turn would take now; null once the session is gone. */
  currentRoute(sessionId: string): Route | null;
  /** The text of the turn's final reply ("" when it had none). */
  turnReply(sessionId: string, turnId: string): string;
  modelInfo?: ModelInfoCache;
  clock: Clock;
  log: AgentLog;
}

interface RunningFork {
  pluginId: string;
  state: ForkState;
  abort: AbortController;
}

const settledState = (outcome: ForkOutcome): ForkState => ({
  outcome,
  result: null,
  actions: [],
  cancelled: outcome === "cancelled",
});

export class ForkService {
  private readonly forks = new Map<string, RunningFork>();

  constructor(private readonly deps: ForkServiceDeps) {}

  /**
   * Starts a fork for the plugin, or answers null when nothing was started. Throws
   * PluginLlmInputError for bad arguments and PluginLlmBudgetError for a spent daily budget,
   * both before the token is touched.
   */
  start(
    pluginId: string,
    raw: { token: unknown; prompt: unknown; options: unknown },
    onUpdate: (forkId: string, state: ForkState) => void,
  ): ForkStart | null {
    const args = parseForkArgs(raw.prompt, raw.options);
    const refuse = (why: string, spent: boolean): null => {
      this.audit(pluginId, null, `refused:${why}`, { spent });
      return null;
    };
    // Refusals that keep the token: no grant or a bad token, a tool that is not the plugin's own.
    const peek = this.deps.leases.peek(raw.token, pluginId, "llm.session_fork");
    if (!peek.ok) return refuse(peek.reason, false);
    const foreign = args.tools.find((name) => this.deps.tools.get(name)?.pluginId !== pluginId);
    if (foreign !== undefined) return refuse(`tool_not_own:${foreign}`, false);
    this.deps.budgets.check(pluginId);
    const spend = this.deps.leases.spend(raw.token, pluginId, "llm.session_fork");
    if (!spend.ok) return refuse(spend.reason, false);
    const lease = spend.lease;
    // From here the token is spent, whatever happens.
    const offered = new Set((lease.request.body.tools ?? []).map((t) => t.function.name));
    const missing = args.tools.find((name) => !offered.has(name));
    if (missing !== undefined) return refuse(`tool_not_in_session:${missing}`, true);
    if (args.task !== undefined && !this.deps.slots.owns(pluginId, args.task))
      return refuse(`task_not_own:${args.task}`, true);

    const forkId = randomUUID();
    const now = this.deps.currentRoute(lease.sessionId);
    const refusal: ForkOutcome | null = !now
      ? "refused:parent_gone"
      : !sameRoute(routeIdentity(now), lease.turnRoute)
        ? "refused:runtime_changed"
        : null;
    if (refusal) {
      this.audit(pluginId, lease.sessionId, refusal, { spent: true });
      return { forkId, state: settledState(refusal) };
    }
    return { forkId, state: this.launch(forkId, pluginId, lease, args, onUpdate) };
  }

  /** The handle's cancel(): only the plugin that started the fork can stop it. */
  cancel(pluginId: string, forkId: string): void {
    const fork = this.forks.get(forkId);
    if (fork && fork.pluginId === pluginId) fork.abort.abort("cancelled");
  }

  /** Cancels the running forks of plugins no longer loaded (disabled, failed, stopped). */
  cancelUnloaded(isLoaded: (pluginId: string) => boolean): void {
    for (const fork of this.forks.values()) if (!isLoaded(fork.pluginId)) fork.abort.abort("cancelled");
  }

  private launch(
    forkId: string,
    pluginId: string,
    lease: Lease,
    args: ForkArgs,
    onUpdate: (forkId: string, state: ForkState) => void,
  ): ForkState {
    const { sessionId, gatewaySessionKey } = lease;
    const settings = this.deps.settings.get();
    const route = args.task
      ? resolveAuxiliaryRoute(args.task, settings, this.deps.slots)
      : lease.request.route;
    const window = contextWindowOf(settings, route.providerId, route.model, this.deps.modelInfo);
    const defaultBudget = Math.floor(window * FORK_INPUT_SHARE);
    const inputBudget = Math.min(defaultBudget, args.inputBudget ?? defaultBudget);
    const reply = this.deps.turnReply(sessionId, lease.turnId);
    const messages: ChatMessage[] = [
      ...lease.request.body.messages,
      ...(reply ? [{ role: "assistant" as const, content: reply }] : []),
      { role: "user", content: args.prompt },
    ];
    const abort = new AbortController();
    const state: ForkState = { outcome: "running", result: null, actions: [], cancelled: false };
    this.forks.set(forkId, { pluginId, state, abort });
    const timer = this.deps.clock.setTimeout(() => abort.abort("timeout"), args.timeoutSeconds * 1000);
    const push = () => onUpdate(forkId, { ...state, actions: [...state.actions] });
    const category = `plugin_fork:${pluginId}`;

    const run = runFork(
      {
        ...this.deps,
        charge: (usage) => {
          this.deps.budgets.spend(pluginId, usage.inputTokens + usage.outputTokens);
          try {
            this.deps.bill(sessionId, category, usage);
          } catch {
            // The session may be gone; the plugin's day still counts the tokens.
          }
        },
      },
      {
        pluginId,
        sessionId,
        gatewaySessionKey,
        route,
        body: { ...lease.request.body, messages },
        allowedTools: args.tools,
        maxIterations: args.maxIterations,
        inputBudget,
        signal: abort.signal,
        onAction: (name) => {
          state.actions.push(name);
          push();
        },
      },
    );
    const settled = run
      .then(
        (done) => {
          const reason: unknown = abort.signal.reason;
          state.outcome =
            done.outcome !== "stopped" ? done.outcome : reason === "timeout" ? "timeout" : "cancelled";
          state.result = done.result;
          this.audit(pluginId, sessionId, state.outcome, {
            requests: done.requests,
            input_tokens: done.inputTokens,
            output_tokens: done.outputTokens,
            ...(done.error ? { error: done.error } : {}),
          });
        },
        (error: unknown) => {
          state.outcome = "error";
          this.audit(pluginId, sessionId, "error", { error: String(error) });
        },
      )
      .finally(() => {
        this.deps.clock.clearTimeout(timer);
        state.cancelled = state.outcome === "cancelled";
        this.forks.delete(forkId);
        push();
      });
    this.deps.backgroundWork.register({
      sessionId,
      kind: "fork",
      pluginId,
      cancel: (why) => abort.abort(why),
      settled,
    });
    return { ...state, actions: [] };
  }

  /** One line per fork in `logs/agent.log` (docs/contract.md §6.7's form); never the prompt or the reply. */
  private audit(
    pluginId: string,
    sessionId: string | null,
    outcome: string,
    fields: Record<string, string | number | boolean>,
  ): void {
    this.deps.log.write("INFO", "plugin_fork", {
      plugin: pluginId,
      ...(sessionId ? { session: sessionId } : {}),
      outcome,
      ...fields,
    });
  }
}
