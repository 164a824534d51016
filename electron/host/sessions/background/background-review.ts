/**
 * The app's own background review (docs/contract.md §6.2 `background_review`, §7.4's pattern): every
 * `memory.nudge_interval` person turns (0 = off) a run on the `background_review` slot reads the
 * session and proposes additions to the Memory note. The proposal is a notice in the transcript
 * (never sent to the model) that the person accepts or dismisses; accepting appends the lines to
 * `memory.note`. The run is background work: a person's next turn cancels it, and a cancelled run
 * proposes nothing.
 */
import type { SettingsStore } from "../../config/settings-store.js";
import type { AuxiliaryCaller } from "../../llm/auxiliary-call.js";
import type { ChatMessage } from "../../llm/chat-request.js";
import type { AgentLog } from "../../logging/agent-log.js";
import { contextWindowOf, type ModelInfoCache } from "../../models/model-capabilities.js";
import { parseJsonReply } from "../../plugins/llm/json-reply.js";
import { MEMORY_PROPOSAL_NOTICE } from "../../rpc/shared-rules/session-notices.js";
import type { BackgroundWork } from "./background-work.js";
import { isArchivedVersion, isCommandExchange, isNotSent, isPending } from "../turns/request-builder.js";
import { SessionInputError } from "../store/session-errors.js";
import type { Transcript } from "../turns/transcript.js";
import type { TurnOrigin } from "../turns/turn-types.js";
import type { MessageRecord } from "../store/types.js";

export type MemoryProposalState = "pending" | "accepted" | "dismissed";
export interface MemoryProposal {
  additions: string[];
  state: MemoryProposalState;
}

/** The review reads at most this share of the review model's context window (docs/contract.md §7.4's bound). */
const INPUT_SHARE = 0.75;
const MAX_ADDITIONS = 5;
const MAX_ADDITION_CHARS = 500;
const MAX_CHARS_PER_MESSAGE = 4_000;

const instructions =
  "You review a conversation between a user and an assistant to keep the user's Memory note " +
  "current. The Memory note holds durable facts and preferences about the user that help in " +
  "future chats (name, role, projects, tools, style preferences, standing instructions). " +
  "Propose only new, lasting facts the conversation states plainly and the note does not " +
  "already hold; never propose secrets, passwords or keys, nor one-off details of a task. " +
  'Answer with one JSON object and nothing else: {"additions": ["one short line per fact"]}, ' +
  "with an empty list when there is nothing worth keeping.";

export interface BackgroundReviewDeps {
  settings: Pick<SettingsStore, "get" | "set">;
  auxiliary: AuxiliaryCaller;
  transcript: Transcript;
  backgroundWork: BackgroundWork;
  log: AgentLog;
  modelInfo?: ModelInfoCache;
}

const isPersonTurnMessage = (record: MessageRecord): boolean =>
  record.role === "user" &&
  (record.meta.origin === undefined || record.meta.origin === "person") &&
  !isPending(record) &&
  !isNotSent(record) &&
  !isCommandExchange(record) &&
  !isArchivedVersion(record);

export function proposalOf(record: MessageRecord | undefined): MemoryProposal | null {
  if (!record || record.role !== "notice" || record.meta.notice !== MEMORY_PROPOSAL_NOTICE) return null;
  const proposal = record.meta.proposal as Partial<MemoryProposal> | undefined;
  if (!proposal || !Array.isArray(proposal.additions)) return null;
  return {
    additions: proposal.additions.filter((a): a is string => typeof a === "string"),
    state: proposal.state === "accepted" || proposal.state === "dismissed" ? proposal.state : "pending",
  };
}

export class BackgroundReview {
  constructor(private readonly deps: BackgroundReviewDeps) {}

  /** The person turns the session has had (a turn's steers count once). */
  personTurns(sessionId: string): number {
    const turns = new Set<string>();
    for (const record of this.deps.transcript.records(sessionId))
      if (isPersonTurnMessage(record)) turns.add(record.turnId ?? record.id);
    return turns.size;
  }

  /** `reviewSignals.memoryReviewDue` of a turn that just finished (docs/contract.md §5.3). */
  isDue(sessionId: string, origin: TurnOrigin): boolean {
    const interval = this.deps.settings.get().memory.nudge_interval;
    if (origin !== "person" || interval <= 0) return false;
    const turns = this.personTurns(sessionId);
    return turns > 0 && turns % interval === 0;
  }

  /** Starts the review as the session's background work; it never throws. */
  start(sessionId: string, gatewaySessionKey: string): void {
    const abort = new AbortController();
    const settled = this.run(sessionId, gatewaySessionKey, abort.signal).catch((error: unknown) => {
      if (abort.signal.aborted) return;
      this.deps.log.write("WARN", "background_review_failed", {
        session: sessionId,
        error: error instanceof Error ? error.message : String(error),
      });
    });
    this.deps.backgroundWork.register({
      sessionId,
      kind: "background_review",
      pluginId: null,
      cancel: (reason) => abort.abort(new Error(reason)),
      settled,
    });
  }

  /** Appends the proposal's lines (or the edited ones given) to the Memory note. */
  accept(sessionId: string, messageId: string, edited?: readonly string[]): { note: string } {
    const { record, proposal } = this.pendingProposal(sessionId, messageId);
    const additions = (edited ?? proposal.additions).map((a) => a.trim()).filter(Boolean);
    if (additions.length === 0)
      throw new SessionInputError("There is nothing to add; dismiss the proposal instead.");
    const current = this.deps.settings.get().memory.note.trimEnd();
    const note = [current, ...additions.map((a) => `- ${a}`)].filter(Boolean).join("\n");
    this.deps.settings.set("memory.note", note);
    this.deps.transcript.update(record.id, {
      meta: { proposal: { additions, state: "accepted" } },
    });
    this.deps.log.write("INFO", "memory_review_accepted", {
      session: sessionId,
      additions: additions.length,
    });
    return { note };
  }

  dismiss(sessionId: string, messageId: string): void {
    const { record, proposal } = this.pendingProposal(sessionId, messageId);
    this.deps.transcript.update(record.id, {
      meta: { proposal: { additions: proposal.additions, state: "dismissed" } },
    });
  }

  private pendingProposal(sessionId: string, messageId: string) {
    const record = this.deps.transcript.records(sessionId).find((m) => m.id === messageId);
    const proposal = proposalOf(record);
    if (!record || !proposal)
      throw new SessionInputError(`Message ${messageId} is not a Memory proposal of this chat.`);
    if (proposal.state !== "pending")
      throw new SessionInputError(`This Memory proposal was already ${proposal.state}.`);
    return { record, proposal };
  }

  private async run(sessionId: string, gatewaySessionKey: string, signal: AbortSignal): Promise<void> {
    const settings = this.deps.settings.get();
    const note = settings.memory.note.trim();
    const window = contextWindowOf(
      settings,
      settings.model.provider,
      settings.model.model,
      this.deps.modelInfo,
    );
    const digest = this.digest(sessionId, Math.floor(window * INPUT_SHARE * 4) - instructions.length);
    if (!digest) return;
    const messages: ChatMessage[] = [
      { role: "system", content: instructions },
      {
        role: "user",
        content: `Current Memory note:\n${note || "(empty)"}\n\nConversation:\n${digest}`,
      },
    ];
    const outcome = await this.deps.auxiliary.complete(
      { task: "background_review", sessionId, gatewaySessionKey, pluginId: null, signal },
      { messages, response_format: { type: "json_object" } },
    );
    if (signal.aborted) return;
    const additions = this.additionsFrom(outcome.text, note);
    this.deps.log.write("INFO", "background_review", { session: sessionId, proposed: additions.length });
    if (additions.length === 0) return;
    this.deps.transcript.append({
      sessionId,
      role: "notice",
      content: `Proposed additions to Memory:\n${additions.map((a) => `- ${a}`).join("\n")}`,
      meta: { notice: MEMORY_PROPOSAL_NOTICE, proposal: { additions, state: "pending" } },
    });
  }

  /** The conversation as text, newest messages kept when it would pass `maxChars`. */
  private digest(sessionId: string, maxChars: number): string {
    const lines: string[] = [];
    let used = 0;
    const records = this.deps.transcript.records(sessionId);
    for (let i = records.length - 1; i >= 0; i--) {
      const record = records[i]!;
      if (record.role !== "user" && record.role !== "assistant") continue;
      if (isPending(record) || isCommandExchange(record) || isArchivedVersion(record) || !record.content)
        continue;
      const line = `${record.role === "user" ? "User" : "Assistant"}: ${record.content.slice(0, MAX_CHARS_PER_MESSAGE)}`;
      if (used + line.length > maxChars) break;
      lines.unshift(line);
      used += line.length + 1;
    }
    return lines.join("\n");
  }

  private additionsFrom(text: string, note: string): string[] {
    const reply = parseJsonReply(text);
    const raw = reply.ok ? (reply.value as { additions?: unknown } | null)?.additions : undefined;
    if (!Array.isArray(raw)) return [];
    const known = note.toLowerCase();
    const seen = new Set<string>();
    return raw
      .filter((a): a is string => typeof a === "string")
      .map((a) => a.replace(/\s+/g, " ").trim().slice(0, MAX_ADDITION_CHARS))
      .filter((a) => {
        const key = a.toLowerCase();
        if (!a || known.includes(key) || seen.has(key)) return false;
        seen.add(key);
        return true;
      })
      .slice(0, MAX_ADDITIONS);
  }
}
