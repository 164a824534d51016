/**
 * The desktop chat's sessions (docs/contract.md §9.1): create, list, open, rename, delete, search, send, stop,
 * regenerate, usage. A session freezes the settings it was created with; turns, busy input and
 * titles are delegated to the turn runner, `BusyInput` and the title generator.
 */
import { randomUUID } from "node:crypto";
import type { Clock } from "../clock.js";
import type { SettingsStore } from "../config/settings-store.js";
import type { EventHub } from "../events.js";
import type { AuxiliaryCaller } from "../llm/auxiliary-call.js";
import type { ModelInfoCache } from "../models/model-capabilities.js";
import type { ChatEngine } from "../llm/chat-engine.js";
import type { Usage } from "../llm/usage.js";
import type { AgentLog } from "../logging/agent-log.js";
import type { CommandRegistry } from "../plugins/registries/command-registry.js";
import type { HookRegistry } from "../plugins/registries/hook-registry.js";
import type { ToolRegistry } from "../plugins/registries/tool-registry.js";
import type { SessionDetails, SessionListItem } from "../rpc/methods/sessions.js";
import { BackgroundReview } from "./background/background-review.js";
import { BackgroundWork } from "./background/background-work.js";
import { BusyInput } from "./input/busy-input.js";
import { commandTitle, runChatCommand } from "./input/chat-command.js";
import { ChatFiles } from "./export/chat-files.js";
import { MessageEdits } from "./message-edits.js";
import { SessionOverrides } from "./session-overrides.js";
import { snapshotOf } from "./store/tables/session-snapshot.js";
import { SessionBusyError, SessionInputError, SessionNotFoundError } from "./store/session-errors.js";
import { isArchivedVersion, isCommandExchange, isNotSent, isPending } from "./turns/request-builder.js";
import type { SessionStore } from "./session-store.js";
import { DeltaFrame } from "./turns/delta-frame.js";
import { parseChatInput } from "./input/slash-command.js";
import type { StoreHandle } from "./recovery/store-handle.js";
import { Compactor } from "./turns/compaction.js";
import { checkImages } from "./input/image-attachments.js";
import { ImageDescriber } from "./turns/image-description.js";
import { TitleGenerator } from "./turns/title-generator.js";
import { Transcript } from "./turns/transcript.js";
import { TurnRunner, turnRoutes } from "./turns/turn-runner.js";
import type { Route } from "../llm/route.js";
import type { SideQuestionLeases } from "../plugins/capabilities/side-question-lease.js";
import {
  toMessageView,
  type BusyInputMode,
  type MessageView,
  type SendResult,
  type TurnOrigin,
} from "./turns/turn-types.js";
import type { SessionRecord, UsageRow } from "./store/types.js";
import { isUsageCategory, usageEntry } from "./store/tables/usage-ledger.js";
import type { ExternalTools } from "./turns/external-tools.js";

export interface SessionServiceDeps {
  store: StoreHandle;
  settings: SettingsStore;
  events: EventHub;
  engine: ChatEngine;
  hooks: HookRegistry;
  tools: ToolRegistry;
  /** MCP servers' tools for chat turns (docs/contract.md §13.3). */
  external?: ExternalTools;
  commands: CommandRegistry;
  log: AgentLog;
  clock: Clock;
  /** Calls on auxiliary slots (titles, compression, vision). */
  auxiliary: AuxiliaryCaller;
  /** What providers' model lists said about context windows and vision. */
  modelInfo?: ModelInfoCache;
  maxIterations?: number;
  /** Forks and the background review per session; created here when not given. */
  backgroundWork?: BackgroundWork;
  /** Side-question tokens (docs/contract.md §7.3), handed to the turn runner. */
  leases?: SideQuestionLeases;
}

/** Times are epoch milliseconds throughout the session API (shapes in rpc/methods/sessions.ts). */
export type { SessionDetails, SessionListItem } from "../rpc/methods/sessions.js";
import type { SessionImageInput } from "../rpc/methods/sessions.js";

export class SessionService {
  private readonly transcript: Transcript;
  private readonly busy: BusyInput;
  private readonly titles: TitleGenerator;
  /** The chat's model and system prompt, changed from its header. */
  readonly overrides: SessionOverrides;
  /** Edited messages and their versions. */
  readonly edits: MessageEdits;
  /** Export and import of chats. */
  readonly files: ChatFiles;
  /** Each session's forks and background review (docs/contract.md §7.4, §9.3). */
  readonly backgroundWork: BackgroundWork;
  /** The app's own memory review and its proposals (accept, dismiss). */
  readonly review: BackgroundReview;
  private readonly background = new Set<Promise<unknown>>();
  private readonly store: () => SessionStore;
  /**
   * The connection that last created or wrote to each session: the `gatewaySessionKey` of turns a
   * plugin injects (docs/contract.md §5.3: the key of the window that owns the session).
   */
  private readonly owners = new Map<string, string>();
  /** Sessions as turns need them (id and frozen snapshot, which never change), kept across turns. */
  private readonly turnSessions = new Map<string, SessionRecord>();

  constructor(private readonly deps: SessionServiceDeps) {
    this.store = () => deps.store.get();
    this.backgroundWork = deps.backgroundWork ?? new BackgroundWork(deps.clock);
    this.transcript = new Transcript(this.store, deps.events, deps.clock);
    deps.store.onLateUpdate((record) => this.transcript.writtenLate(record));
    const compactor = new Compactor({ ...deps, transcript: this.transcript });
    const imageDescriber = new ImageDescriber({ ...deps, transcript: this.transcript });
    this.review = new BackgroundReview({
      ...deps,
      transcript: this.transcript,
      backgroundWork: this.backgroundWork,
    });
    const runner = new TurnRunner({
      ...deps,
      transcript: this.transcript,
      store: this.store,
      // Every reply streaming at once writes its batches in one commit a frame.
      deltaFrame: new DeltaFrame((writes) => this.store().transaction(writes)),
      compactor,
      imageDescriber,
      backgroundWork: this.backgroundWork,
      review: this.review,
    });
    this.titles = new TitleGenerator({ ...deps, store: this.store, transcript: this.transcript });
    this.busy = new BusyInput(
      runner,
      this.transcript,
      (sessionId, turn, result) => {
        this.transcript.emit("sessions.changed", null, {});
        if (result.status === "ok" && this.store().getSession(sessionId)?.titleState === "pending") {
          this.track(this.titles.generate(sessionId, turn.gatewaySessionKey));
        }
      },
      this.backgroundWork,
    );
    this.overrides = this.createOverrides();
    this.files = new ChatFiles({ store: this.store, transcript: this.transcript, settings: deps.settings });
    this.edits = new MessageEdits({
      store: this.store,
      transcript: this.transcript,
      isRunning: (id) => this.busy.isRunning(id),
      rerun: (session, turnId, text, origin) =>
        this.busy.rerun(session, turnId, text, origin, this.owners.get(session.id) ?? "person"),
    });
  }

  private createOverrides(): SessionOverrides {
    return new SessionOverrides({
      store: this.store,
      transcript: this.transcript,
      settings: this.deps.settings,
      isRunning: (id) => this.busy.isRunning(id),
      changed: (session) => {
        this.turnSessions.set(session.id, session);
        this.transcript.emit("sessions.changed", null, {});
      },
    });
  }

  create(params: { title?: string }, gatewaySessionKey: string): { sessionId: string } {
    const title = params.title?.trim();
    const session = this.store().createSession({
      snapshot: snapshotOf(this.deps.settings.get()),
      ...(title ? { title } : {}),
    });
    this.owners.set(session.id, gatewaySessionKey);
    this.remember(session);
    this.transcript.startEmpty(session.id);
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
      pinned: s.pinned,
    }));
  }

  /** Pins a chat to the top of the list, or unpins it. */
  setPinned(sessionId: string, pinned: boolean): void {
    this.store().setSessionPinned(sessionId, pinned);
    this.transcript.emit("sessions.changed", null, {});
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
      systemPrompt: session.snapshot.chatSystemPrompt ?? "",
    };
  }

  messages(sessionId: string): MessageView[] {
    // A person's message whose request is still being sent is shown as it will be stored.
    this.transcript.writeUnwritten();
    return this.store().listMessages(sessionId).map(toMessageView);
  }

  send(
    sessionId: string,
    text: string,
    mode: BusyInputMode | undefined,
    gatewaySessionKey: string,
    rawImages?: readonly SessionImageInput[],
  ): SendResult {
    const session = this.sessionForTurn(sessionId);
    const images = checkImages(rawImages);
    if (!text.trim() && images.length === 0)
      throw new SessionInputError("The message is empty; type something to send.");
    this.owners.set(sessionId, gatewaySessionKey);
    const input = parseChatInput(text, this.deps.commands);
    if (input.kind === "command" && images.length > 0)
      throw new SessionInputError(
        "Images can't go with a slash command; send them in a message of their own.",
      );
    if (input.kind === "command") {
      const title = commandTitle(input.command.name, input.rawArgs);
      return runChatCommand(
        {
          transcript: this.transcript,
          log: this.deps.log,
          track: (work) => this.track(work),
          onAnswered: (id) => this.nameAfterCommand(id, title),
        },
        { sessionId, text, command: input.command, rawArgs: input.rawArgs, gatewaySessionKey },
      );
    }
    if (input.kind === "steer" && !input.text) {
      throw new SessionInputError("Write the guidance after /steer, for example: /steer keep it short");
    }
    // A new message answers a waiting MCP approval with "deny" (docs/contract.md §13.3).
    this.deps.external?.interruptWaiting(sessionId);
    return this.busy.send({
      session,
      text: input.text,
      mode:
        input.kind === "steer" ? "steer" : (mode ?? (() => this.deps.settings.get().display.busy_input_mode)),
      origin: "person",
      gatewaySessionKey,
      ...(images.length ? { images } : {}),
    });
  }

  /**
   * A plugin's injected message (docs/contract.md §9.3): a turn of its own, queued behind a running one, that
   * first waits for the session's background work (see BusyInput). False when it cannot be taken
   * (empty text, no such session, the store failing; the log says why).
   */
  inject(sessionId: string, text: string, pluginId: string): boolean {
    if (!text.trim()) return false;
    const origin: TurnOrigin = `plugin:${pluginId}`;
    try {
      const session = this.store().getSession(sessionId);
      if (!session) {
        this.deps.log.write("WARN", "inject_refused", {
          plugin: pluginId,
          session: sessionId,
          error: "no chat has this id",
        });
        return false;
      }
      const gatewaySessionKey = this.owners.get(sessionId) ?? origin;
      this.busy.send({ session, text, mode: "queue", origin, gatewaySessionKey });
      return true;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.deps.log.write("WARN", "inject_failed", { plugin: pluginId, session: sessionId, error: reason });
      return false;
    }
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
    await this.backgroundWork.cancelAll(sessionId, "session_deleted");
    this.owners.delete(sessionId);
    this.turnSessions.delete(sessionId);
    this.transcript.forget(sessionId);
    if (!this.store().deleteSession(sessionId)) return;
    this.track(this.deps.hooks.fire("on_session_end", { sessionId, gatewaySessionKey }));
    this.transcript.emit("sessions.changed", null, {});
  }

  /**
   * Answers the last message again; the reply it replaces (with its tool calls and notices) is kept
   * as an earlier version of the exchange. A last message the host quit before sending (`notSent`)
   * is sent now: regenerate doubles as retry.
   */
  regenerate(sessionId: string, gatewaySessionKey: string): { turnId: string } {
    const session = this.requireSession(sessionId);
    if (this.busy.isRunning(sessionId)) {
      throw new SessionBusyError("A reply is still being written; stop it first, then regenerate.");
    }
    const records = this.store().listMessages(sessionId);
    const last = records.findLastIndex(
      (m) => m.role === "user" && !isPending(m) && !isCommandExchange(m) && !isArchivedVersion(m),
    );
    const user = records[last];
    if (!user) throw new SessionInputError("There is no message to answer again yet; send one first.");
    const after = records
      .slice(last + 1)
      .filter((m) => !isPending(m) && !isCommandExchange(m) && !isArchivedVersion(m));
    const origin = (typeof user.meta.origin === "string" ? user.meta.origin : "person") as TurnOrigin;
    // A reply that came back is kept as a version (‹ 1/2 ›, as for an edit); a message the host
    // never sent, or one whose reply is gone, is simply sent (again).
    const keepReplies = !isNotSent(user) && after.some((m) => m.role === "assistant");
    if (keepReplies) {
      const turnId = this.edits.askAgain(sessionId, user, after);
      this.owners.set(sessionId, gatewaySessionKey);
      this.busy.rerun(session, turnId, user.content, origin, gatewaySessionKey);
      return { turnId };
    }
    this.transcript.remove(
      sessionId,
      after.map((m) => m.id),
    );
    const turnId = randomUUID();
    this.transcript.moveToEnd(
      user.id,
      isNotSent(user) ? { turnId, status: "complete", meta: { notSent: null } } : { turnId },
    );
    this.owners.set(sessionId, gatewaySessionKey);
    this.busy.rerun(session, turnId, user.content, origin, gatewaySessionKey);
    return { turnId };
  }

  usage(sessionId: string): UsageRow[] {
    return this.store().usage(sessionId);
  }

  /** Bills a model call to a session; plugin calls use `plugin_llm:<id>` (docs/contract.md §9.1). */
  billUsage(sessionId: string, category: string, usage: Usage): void {
    if (!isUsageCategory(category)) {
      throw new SessionInputError(
        `"${category}" is not a usage category (docs/contract.md §9.1 lists them, e.g. plugin_llm:<id>).`,
      );
    }
    this.store().addUsage(sessionId, usageEntry(category, usage));
  }

  /**
   * What the person should know about the store at startup (for `host.info`'s notices): a store
   * that cannot open, a damaged one moved aside at start, and messages a previous run left unsent.
   */
  notices(): { kind: string; message: string }[] {
    const recovered = this.deps.store.recoveryNotice();
    const diskFull = this.deps.store.diskFullNotice();
    const notices = [recovered, diskFull].flatMap((message) =>
      message ? [{ kind: "session_store", message }] : [],
    );
    const failure = this.deps.store.openError();
    if (failure) {
      const message = failure instanceof Error ? failure.message : String(failure);
      return [...notices, { kind: "session_store", message: `Chats are unavailable: ${message}` }];
    }
    const unsent = this.deps.store.get().notSentAtOpen;
    if (!unsent) return notices;
    return [
      ...notices,
      {
        kind: "session_store",
        message:
          `${unsent === 1 ? "1 message" : `${unsent} messages`} waiting to be sent when Hermes Desktop last closed ` +
          "did not reach the model; they are marked “Not sent” in their chats. Regenerate or send them again.",
      },
    ];
  }

  /**
   * Replaces the store with a backup (store-backups.ts); the current one is kept aside. Refused
   * while a reply is being written, which would land in the wrong store.
   */
  restoreBackup(backupFile: string): { keptAside: string } {
    if (this.busy.anyRunning()) {
      throw new SessionBusyError(
        "A reply is being written; stop it or wait for it to end, then restore the backup.",
      );
    }
    const result = this.deps.store.restore(backupFile);
    this.transcript.emit("sessions.changed", null, {});
    return result;
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
    const sessions = new Set(this.backgroundWork.list().map((job) => job.sessionId));
    await Promise.all([...sessions].map((id) => this.backgroundWork.cancelAll(id, "host_shutdown")));
    await this.settled();
    this.deps.store.close();
  }

  /** The text of a turn's final reply ("" when it has none): what a fork continues from. */
  turnReply(sessionId: string, turnId: string): string {
    const records = this.transcript.records(sessionId);
    const reply = records.findLast(
      (m) => m.turnId === turnId && m.role === "assistant" && m.status === "complete" && !m.meta.toolCalls,
    );
    return reply?.content ?? "";
  }

  /**
   * The route the session's next turn would take now (its frozen model on today's endpoint), or
   * null when the session is gone or no model is set: a side question compares it with the turn's.
   */
  currentRoute(sessionId: string): Route | null {
    const session = this.store().getSession(sessionId);
    if (!session) return null;
    try {
      return turnRoutes(session.snapshot, this.deps.settings.get())[0] ?? null;
    } catch {
      return null;
    }
  }

  /** A chat still called `New chat` whose first exchange was a command is named after it. */
  private nameAfterCommand(sessionId: string, title: string): void {
    const session = this.store().getSession(sessionId);
    if (!session || session.titleState !== "pending" || session.title !== "New chat") return;
    this.store().renameSession(sessionId, title, "pending");
    this.transcript.emit("session.title", sessionId, { title });
    this.transcript.emit("sessions.changed", null, {});
  }

  /** Like `requireSession`, without a store read for a session seen before (only id and snapshot are used). */
  private sessionForTurn(sessionId: string): SessionRecord {
    const known = this.turnSessions.get(sessionId);
    if (known) return known;
    return this.remember(this.requireSession(sessionId));
  }

  private remember(session: SessionRecord): SessionRecord {
    if (this.turnSessions.size >= 64) this.turnSessions.clear();
    this.turnSessions.set(session.id, session);
    return session;
  }

  private requireSession(sessionId: string): SessionRecord {
    const session = this.store().getSession(sessionId);
    if (!session) throw new SessionNotFoundError(sessionId);
    return session;
  }

  private track(work: Promise<unknown>): void {
    const settled = work.catch(() => undefined).finally(() => this.background.delete(settled));
    this.background.add(settled);
  }
}
