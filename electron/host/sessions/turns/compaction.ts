/**
 * Compaction (docs/contract.md §9.1): when a turn's next request would pass 75 % of the model's context
 * window, the oldest turns are summarised through the `compression` slot into one marker in the
 * transcript (a `notice` with `meta.compaction`). Requests then carry the summary in place of the
 * turns it covers (see request-builder); the turns themselves stay in the store and in search.
 */
import type { Settings } from "../../config/config-schema.js";
import type { AuxiliaryCaller } from "../../llm/auxiliary-call.js";
import type { ChatMessage } from "../../llm/chat-request.js";
import type { Route } from "../../llm/route.js";
import type { AgentLog } from "../../logging/agent-log.js";
import { contextWindowOf, type ModelInfoCache } from "../../models/model-capabilities.js";
import { compactionOf, requestMessages, visibleAfterCompaction } from "./request-builder.js";
import type { Transcript } from "./transcript.js";
import type { MessageRecord, SessionSnapshot } from "../store/types.js";

/** Compact when the request passes this share of the window … */
export const COMPACT_AT = 0.75;
/** … down to about this share, so a compaction is not needed again on the very next turn. */
const COMPACT_TO = 0.5;
const MAX_CHARS_PER_MESSAGE = 4_000;

const instructions =
  "Summarise the earlier part of a conversation so it can continue without it. Keep facts, " +
  "names, numbers, decisions, open questions and what the user asked for; drop small talk. " +
  "Write plain prose or short bullet points, at most 300 words, without any preamble.";

/** A rough token count (4 characters a token): enough to decide, cheap on every step. */
export function estimateTokens(messages: readonly ChatMessage[]): number {
  return Math.ceil(JSON.stringify(messages).length / 4);
}

export interface CompactorDeps {
  auxiliary: AuxiliaryCaller;
  transcript: Transcript;
  settings: { get(): Settings };
  modelInfo?: ModelInfoCache;
  log: AgentLog;
}

export interface CompactionInput {
  sessionId: string;
  turnId: string;
  gatewaySessionKey: string;
  snapshot: SessionSnapshot;
  route: Route;
  signal: AbortSignal;
  /** Runs before the summary request goes out (the turn writes what it still holds in memory). */
  beforeRequest?: () => void;
  /** The turn's read of the settings; read now when absent. */
  settings?: Settings;
}

const speaker = (record: MessageRecord): string =>
  record.role === "user" ? "User" : record.role === "assistant" ? "Assistant" : "Tool result";

export class Compactor {
  constructor(private readonly deps: CompactorDeps) {}

  /**
   * Compacts when needed; never throws (a failed summary leaves the history as it was). Returns the
   * request's messages when it left the transcript as it was, so the step need not build them
   * twice; null when it tried to summarise (the caller builds them from the transcript now).
   */
  async maybeCompact(input: CompactionInput): Promise<ChatMessage[] | null> {
    const { transcript, settings } = this.deps;
    const records = transcript.records(input.sessionId);
    const window = contextWindowOf(
      input.settings ?? settings.get(),
      input.route.providerId,
      input.route.model,
      this.deps.modelInfo,
    );
    const messages = requestMessages(input.snapshot, records);
    if (estimateTokens(messages) <= window * COMPACT_AT) return messages;

    const chosen = this.oldestTurns(input, records, window);
    if (chosen.length === 0) return messages;
    const previous = compactionOf(records);
    const text = [
      ...(previous ? [`Summary of what came before:\n${previous.summary}`] : []),
      ...chosen
        .filter((r) => r.content)
        .map((r) => `${speaker(r)}: ${r.content.slice(0, MAX_CHARS_PER_MESSAGE)}`),
    ].join("\n\n");
    try {
      input.beforeRequest?.();
      const outcome = await this.deps.auxiliary.complete(
        {
          task: "compression",
          sessionId: input.sessionId,
          gatewaySessionKey: input.gatewaySessionKey,
          signal: input.signal,
        },
        {
          messages: [
            { role: "system", content: instructions },
            { role: "user", content: text },
          ],
          max_tokens: 1024,
        },
      );
      const summary = outcome.text.trim();
      if (!summary) throw new Error("the compression model answered with nothing");
      transcript.append({
        sessionId: input.sessionId,
        turnId: input.turnId,
        role: "notice",
        content: summary,
        meta: {
          notice: "compaction",
          compaction: { throughSeq: chosen[chosen.length - 1]!.seq, messages: chosen.length },
        },
      });
    } catch (error) {
      if (input.signal.aborted) return null;
      this.deps.log.write("WARN", "compaction_failed", {
        session: input.sessionId,
        error: error instanceof Error ? error.message : String(error),
      });
    }
    return null;
  }

  /**
   * The oldest whole turns (never the running one) whose removal brings the request to about half
   * the window; the kept part starts at a person's message, so no tool result loses its call.
   */
  private oldestTurns(
    input: CompactionInput,
    records: readonly MessageRecord[],
    window: number,
  ): MessageRecord[] {
    const candidates = visibleAfterCompaction(records).filter(
      (r) => r.turnId !== input.turnId && r.role !== "notice" && r.role !== "system",
    );
    const budget = window * COMPACT_TO;
    let cut = 0;
    for (let i = 1; i <= candidates.length; i++) {
      const next = candidates[i];
      // Cut only where the next kept message is a person's (or nothing of the past is kept).
      if (next && next.role !== "user") continue;
      cut = i;
      const throughSeq = candidates[i - 1]!.seq;
      const kept = records.filter((r) => r.seq > throughSeq);
      const summaryGuess = 400; // tokens the summary itself will take
      if (estimateTokens(requestMessages(input.snapshot, kept)) + summaryGuess <= budget) break;
    }
    return candidates.slice(0, cut);
  }
}
