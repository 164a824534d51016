/**
 * The desktop chat's sessions (SPEC §9.1): create, list, open, rename, delete, search, send, stop,
 * regenerate, usage. A session freezes the settings it was created with; turns, busy input and
 * titles are delegated to the turn runner, `BusyInput` and the title generator.
 */
import { randomUUID } from "node:crypto";
import type { Clock } from "../clock.js";
import type { SettingsStore } from "../config/settings-store.js";
import type { Settings } from "../config/config-schema.js";
import type { EventHub } from "../events.js";
import type { ChatEngine } from "../llm/chat-engine.js";
import type { Usage } from "../llm/usage.js";
import type { AgentLog } from "../logging/agent-log.js";
import type { CommandRegistry, RegisteredCommand } from "../plugins/command-registry.js";
import type { HookRegistry } from "../plugins/hook-registry.js";
import type { ToolRegistry } from "../plugins/tool-registry.js";
import type { SessionDetails, SessionListItem } from "../rpc/methods/sessions.js";
import { BusyInput } from "./busy-input.js";
import { SessionBusyError, SessionInputError, SessionNotFoundError } from "./session-errors.js";
import { isCommandExchange, isPending } from "./request-builder.js";
import type { SessionStore } from "./session-store.js";
import { parseChatInput } from "./slash-command.js";
import type { StoreHandle } from "./store-handle.js";
import { TitleGenerator } from "./title-generator.js";
import { Transcript } from "./transcript.js";
import { TurnRunner } from "./turn-runner.js";
import {
  toMessageView,
  type BusyInputMode,
  type MessageView,
  type SendResult,
  type TurnOrigin,
} from "./turn-types.js";
import type { SessionSnapshot, UsageCategory, UsageRow } from "./types.js";

export interface SessionServiceDeps {
  store: StoreHandle;
  settings: SettingsStore;
  events: EventHub;
  engine: ChatEngine;
  hooks: HookRegistry;
  tools: ToolRegistry;
  commands: CommandRegistry;
  log: AgentLog;
  clock: Clock;
  maxIterations?: number;
}

/** Times are epoch milliseconds throughout the session API (shapes in rpc/methods/sessions.ts). */
export type { SessionDetails, SessionListItem } from "../rpc/methods/sessions.js";

export const MEMORY_HEADING = "Memory (notes the user wants you to keep in mind):";

/** What a new session freezes: the main model, the system prompt with memory (SPEC §9.1). */
export function snapshotOf(settings: Settings): SessionSnapshot {
  const note = settings.memory.note.trim();
  const systemPrompt = [settings.chat.system_prompt.trim(), note ? `${MEMORY_HEADING}\n${note}` : ""]
    .filter(Boolean)
    .join("\n\n");
  return {
    mainRoute: { provider: settings.model.provider ?? "", model: settings.model.model ?? "" },
    systemPrompt,
    prefillMessages: [],
    ephemeralSystemPrompt: null,
  };
}

export class SessionService {
  private readonly transcript: Transcript;
  private readonly busy: BusyInput;
  private readonly titles: TitleGenerator;
  private readonly background = new Set<Promise<unknown>>();
  private readonly store: () => SessionStore;

  constructor(private readonly deps: SessionServiceDeps) {
    this.store = () => deps.store.get();
    this.transcript = new Transcript(this.store, deps.events);
    const runner = new TurnRunner({ ...deps, transcript: this.transcript, store: this.store });
    this.titles = new TitleGenerator({ ...deps, store: this.store, transcript: this.transcript });
    this.busy = new BusyInput(runner, this.transcript, (sessionId, turn, result) => {
      this.transcript.emit("sessions.changed", null, {});
      if (result.status === "ok" && this.store().getSession(sessionId)?.titleState === "pending") {
        this.track(this.titles.generate(sessionId, turn.gatewaySessionKey));
      }
    });
  }

  create(params: { title?: string }, gatewaySessionKey: string): { sessionId: string } {
    const title = params.title?.trim();
    const session = this.store().createSession({
      snapshot: snapshotOf(this.deps.settings.get()),
      ...(title ? { title } : {}),
    });
    this.track(this.deps.hooks.fire("on_session_start", { sessionId: session.id, gatewaySessionKey }));
    this.transcript.emit("sessions.changed", null, {});
    return { sessionId: session.id };
  }

  list(query?: string): SessionListItem[] {
    const store = this.store();
    if (query?.trim()) {
      return store.search(query).map((hit) => ({
        sessionId: hit.id,
        title: hit.title,
        createdAt: hit.createdAt,
        updatedAt: hit.updatedAt,
        snippet: hit.snippet,
      }));
    }
    return store.listSessions().map((s) => ({
      sessionId: s.id,
      title: s.title,
      createdAt: s.createdAt,
      updatedAt: s.updatedAt,
    }));
  }

  get(sessionId: string): SessionDetails {
    const session = this.requireSession(sessionId);
    return {
      sessionId,
      title: session.title,
      titleState: session.titleState,
      createdAt: session.createdAt,
      updatedAt: session.updatedAt,
      status: this.busy.isRunning(sessionId) ? "running" : "idle",
      runningTurnId: this.busy.runningTurnId(sessionId),
      queued: this.busy.waitingCount(sessionId),
      model: { ...session.snapshot.mainRoute },
    };
  }

  messages(sessionId: string): MessageView[] {
    return this.store().listMessages(sessionId).map(toMessageView);
  }

  send(
    sessionId: string,
    text: string,
    mode: BusyInputMode | undefined,
    gatewaySessionKey: string,
  ): SendResult {
    this.requireSession(sessionId);
    if (!text.trim()) throw new SessionInputError("The message is empty; type something to send.");
    const input = parseChatInput(text, this.deps.commands);
    if (input.kind === "command")
      return this.runCommand(sessionId, text, input.command, input.rawArgs, gatewaySessionKey);
    if (input.kind === "steer" && !input.text) {
      throw new SessionInputError("Write the guidance after /steer, for example: /steer keep it short");
    }
    return this.busy.send({
      sessionId,
      text: input.text,
      mode: input.kind === "steer" ? "steer" : (mode ?? this.deps.settings.get().display.busy_input_mode),
      origin: "person",
      gatewaySessionKey,
    });
  }

  /** A plugin's injected message (SPEC §9.3): a turn of its own, queued behind a running one. */
  inject(sessionId: string, text: string, pluginId: string): boolean {
    if (!text.trim() || !this.store().getSession(sessionId)) return false;
    const origin: TurnOrigin = `plugin:${pluginId}`;
    this.busy.send({ sessionId, text, mode: "queue", origin, gatewaySessionKey: origin });
    return true;
  }

  stop(sessionId: string): void {
    this.requireSession(sessionId);
    this.busy.stop(sessionId);
  }

  rename(sessionId: string, title: string): void {
    if (!title.trim()) throw new SessionInputError("A chat title cannot be empty.");
    this.store().renameSession(sessionId, title, "set");
    this.transcript.emit("session.title", sessionId, { title: title.trim() });
    this.transcript.emit("sessions.changed", null, {});
  }

  async delete(sessionId: string, gatewaySessionKey: string): Promise<void> {
    await this.busy.forget(sessionId);
    if (!this.store().deleteSession(sessionId)) return;
    this.track(this.deps.hooks.fire("on_session_end", { sessionId, gatewaySessionKey }));
    this.transcript.emit("sessions.changed", null, {});
  }

  /** Drops the last reply (with its tool calls and notices) and answers the last message again. */
  regenerate(sessionId: string, gatewaySessionKey: string): { turnId: string } {
    this.requireSession(sessionId);
    if (this.busy.isRunning(sessionId)) {
      throw new SessionBusyError("A reply is still being written; stop it first, then regenerate.");
    }
    const records = this.store().listMessages(sessionId);
    const last = records.findLastIndex((m) => m.role === "user" && !isPending(m) && !isCommandExchange(m));
    const user = records[last];
    if (!user) throw new SessionInputError("There is no message to answer again yet; send one first.");
    const after = records.slice(last + 1).filter((m) => !isPending(m) && !isCommandExchange(m));
    this.transcript.remove(
      sessionId,
      after.map((m) => m.id),
    );
    const turnId = randomUUID();
    this.transcript.moveToEnd(user.id, { turnId });
    const origin = (typeof user.meta.origin === "string" ? user.meta.origin : "person") as TurnOrigin;
    this.busy.rerun(sessionId, turnId, user.content, origin, gatewaySessionKey);
    return { turnId };
  }

  usage(sessionId: string): UsageRow[] {
    return this.store().usage(sessionId);
  }

  /** Bills a model call to a session; plugin calls use `plugin_llm:<id>` (SPEC §9.1). */
  billUsage(sessionId: string, category: string, usage: Usage): void {
    if (!isUsageCategory(category)) {
      throw new RangeError(
        `"${category}" is not a usage category (SPEC §9.1 lists them, e.g. plugin_llm:<id>).`,
      );
    }
    this.store().addUsage(sessionId, {
      category,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      cacheReadTokens: usage.cacheReadTokens,
      cacheWriteTokens: usage.cacheWriteTokens,
      costUsd: usage.costUsd,
    });
  }

  /** Resolves when the session has no turn running or waiting (tests and shutdown). */
  idle(sessionId: string): Promise<void> {
    return this.busy.idle(sessionId);
  }

  /** Resolves when background work (titles, hooks) has settled. */
  async settled(): Promise<void> {
    while (this.background.size) await Promise.allSettled([...this.background]);
  }

  async close(): Promise<void> {
    await this.busy.close();
    await this.settled();
    this.deps.store.close();
  }

  private runCommand(
    sessionId: string,
    text: string,
    command: RegisteredCommand,
    rawArgs: string,
    gatewaySessionKey: string,
  ): SendResult {
    const turnId = randomUUID();
    const meta = { command: command.name, pluginId: command.pluginId };
    this.transcript.append({ sessionId, turnId, role: "user", content: text.trim(), meta });
    const run = Promise.resolve()
      .then(() => command.handler(rawArgs, { sessionId, gatewaySessionKey }))
      .then(
        (output) => {
          const content =
            typeof output === "string" ? output : output === undefined ? "" : JSON.stringify(output);
          this.transcript.append({ sessionId, turnId, role: "assistant", content, meta });
        },
        (error: unknown) => {
          const reason = error instanceof Error ? error.message : String(error);
          this.deps.log.write("WARN", "command_failed", {
            plugin: command.pluginId,
            command: command.name,
            error: reason,
          });
          this.transcript.append({
            sessionId,
            turnId,
            role: "assistant",
            status: "error",
            meta: { ...meta, error: `/${command.name} failed: ${reason}` },
          });
        },
      );
    this.track(run);
    return { turnId, disposition: "started" };
  }

  private requireSession(sessionId: string) {
    const session = this.store().getSession(sessionId);
    if (!session) throw new SessionNotFoundError(sessionId);
    return session;
  }

  private track(work: Promise<unknown>): void {
    const settled = work.catch(() => undefined).finally(() => this.background.delete(settled));
    this.background.add(settled);
  }
}

const fixedCategories = new Set(["chat", "title_generation", "compression", "vision", "background_review"]);

export function isUsageCategory(category: string): category is UsageCategory {
  return fixedCategories.has(category) || /^plugin_(llm|side_question|fork):[a-z0-9_-]{1,64}$/.test(category);
}
