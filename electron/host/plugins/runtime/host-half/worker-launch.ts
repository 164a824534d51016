/**
 * Starts one plugin's worker with the host's half of its `ctx` wired to the host's services: its
 * state file, its `ctx.llm` (behind the trust gate and budget), the registries its handlers go
 * into as proxies, and the mirrors its synchronous members read.
 */
import type { PluginEntryDocument } from "../../../config/config-schema.js";
import type { AgentLog } from "../../../logging/agent-log.js";
import type { Redact } from "../../../secrets/redaction.js";
import { CAPABILITY_IDS, isCapabilityGranted } from "../../capabilities/capabilities.js";
import type { CommandRegistry } from "../../registries/command-registry.js";
import type { DiscoveredPlugin } from "../../catalog/discovery.js";
import type { HookRegistry } from "../../registries/hook-registry.js";
import type { PluginBudgets } from "../../budgets/plugin-budget.js";
import type { IdleTaskScheduler } from "../../idle/idle-scheduler.js";
import type { PluginLlmService } from "../../llm/plugin-llm.js";
import { FilePluginState } from "../../manager/plugin-state.js";
import type { ToolRegistry } from "../../registries/tool-registry.js";
import type { Mirror } from "../boundary.js";
import type { AuxiliaryTaskRegistry } from "../../../models/auxiliary-tasks.js";
import { createCtxHost, type CallDeadlines, type PluginForks } from "./ctx-host.js";
import type { PluginRuntime } from "../plugin-runtime.js";
import type { SideQuestions } from "../../capabilities/side-question.js";
import type { PluginRpcRegistry } from "../../pages/rpc-registry.js";
import type { SessionEnd, WorkerSession } from "./worker-session.js";

export interface WorkerServices {
  home: string;
  runtime: PluginRuntime;
  llm: PluginLlmService;
  budgets: PluginBudgets;
  commands: CommandRegistry;
  hooks: HookRegistry;
  tools: ToolRegistry;
  slots: AuxiliaryTaskRegistry;
  /** Idle tasks (docs/contract.md §9.4); absent in rigs that do not schedule them. */
  idleTasks?: Pick<IdleTaskScheduler, "register" | "removePlugin">;
  /** A plugin's injected message (docs/contract.md §9.3); false when the chat does not exist. */
  injectMessage?(pluginId: string, sessionId: string, text: string): boolean;
  redact: Redact;
  log: AgentLog;
  deadlines?: Partial<CallDeadlines>;
  /** `ctx.forkSession`'s host half (docs/contract.md §7.4). */
  forks?: PluginForks;
  /** `ctx.sideQuestion` (docs/contract.md §7.3). */
  sideQuestions?: SideQuestions;
  /** `plugin.<id>.<method>` handlers (docs/contract.md §8). */
  rpc: PluginRpcRegistry;
  /** Delivers a plugin's session event to the clients; nowhere when absent (a bare manager in tests). */
  emitPluginEvent?: PluginEventSink;
}

export type PluginEventSink = (
  pluginId: string,
  event: string,
  sessionId: string,
  payload: Record<string, unknown>,
) => void;

export interface WorkerRequest {
  pluginId: string;
  heapMb: number;
  mirror: Mirror;
  /** The session this worker gets (known once `open` returned). */
  session(): WorkerSession;
  /** Throws once the plugin was disabled or restarted. */
  assertActive(): void;
  onEnd(end: SessionEnd): void;
}

/** What the worker's synchronous `hasCapability` and `redact` read. */
export function mirrorFor(
  found: Extract<DiscoveredPlugin, { kind: "valid" }>,
  entry: PluginEntryDocument | undefined,
  redactSecrets: boolean,
): Mirror {
  const declared = found.manifest.capabilities;
  return {
    capabilities: Object.fromEntries(
      CAPABILITY_IDS.map((id) => [id, isCapabilityGranted(id, declared, entry)]),
    ),
    redactSecrets,
  };
}

export function openPluginWorker(o: WorkerServices, request: WorkerRequest): Promise<WorkerSession> {
  const { pluginId } = request;
  const state = new FilePluginState(o.home, pluginId);
  return o.runtime.open({
    pluginId,
    heapMb: request.heapMb,
    init: { pluginId, state: state.snapshot(), mirror: request.mirror },
    handlers: createCtxHost({
      pluginId,
      llm: o.llm.forPlugin(pluginId, request.assertActive, (text) => o.redact(text, { force: true })),
      state,
      commands: o.commands,
      hooks: o.hooks,
      tools: o.tools,
      slots: o.slots,
      ...(o.idleTasks && { idleTasks: o.idleTasks }),
      ...(o.injectMessage && {
        injectMessage: (sessionId: string, text: string) => o.injectMessage!(pluginId, sessionId, text),
      }),
      log: o.log,
      session: request.session,
      ...(o.deadlines && { deadlines: o.deadlines }),
      onReady: () => request.session().markReady(),
      onCall: () => o.budgets.countCall(pluginId),
      redact: (text) => o.redact(text),
      assertActive: request.assertActive,
      ...(o.forks && { forks: o.forks }),
      rpc: o.rpc,
      emitEvent: (sessionId, event, payload) => o.emitPluginEvent?.(pluginId, event, sessionId, payload),
      ...(o.sideQuestions && {
        sideQuestion: (token: unknown, prompt: unknown, options: unknown) =>
          o.sideQuestions!.ask(pluginId, token, prompt, options),
      }),
    }),
    onEnd: request.onEnd,
  });
}
