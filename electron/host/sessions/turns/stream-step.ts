/**
 * One model request of a turn: through the fallback chain (docs/contract.md §6.1: 429/5xx move on, and the
 * transcript says who answered), streamed into one assistant message, with the turn-scoped
 * `pre_api_request`/`post_api_request` hooks and `chat` usage. A stop keeps the partial reply as
 * `stopped` (`interrupted` when the host shuts down); a provider error keeps it as `error` with
 * the reason in plain words. While the request is in flight the person's message is made durable
 * (the store's pending log); the reply's first text is shown as it is written, with the person's
 * message, in one commit (`Transcript.appendReplyShowing`), and every later delta is on disk
 * before it is shown (delta-writer.ts).
 */
import type { Clock } from "../../clock.js";
import type { ChatBody } from "../../llm/chat-request.js";
import type { ChatEngine, ChatOutcome } from "../../llm/chat-engine.js";
import { runWithFallback, type FallbackStep } from "../../llm/fallback.js";
import { ProviderRequestError } from "../../llm/provider-request-error.js";
import type { Route } from "../../llm/route.js";
import type { HookRegistry } from "../../plugins/registries/hook-registry.js";
import type { DeltaFrame } from "./delta-frame.js";
import { DeltaWriter } from "./delta-writer.js";
import type { SessionStore } from "../session-store.js";
import { MessageNotSavedError, type Transcript } from "./transcript.js";
import { HostShutdownAbort } from "./turn-types.js";
import type { MessageMeta, MessageRecord } from "../store/types.js";
import { usageEntry } from "../store/tables/usage-ledger.js";

export interface ModelStepDeps {
  engine: ChatEngine;
  hooks: HookRegistry;
  transcript: Transcript;
  store: () => SessionStore;
  clock: Clock;
  /** The frame every streaming reply's batches share, one commit each (delta-frame.ts); a frame per reply when absent. */
  deltaFrame?: DeltaFrame;
}

export interface ModelStepInput {
  sessionId: string;
  turnId: string;
  gatewaySessionKey: string;
  /** The main route first, then the fallbacks in order. */
  routes: readonly Route[];
  body: ChatBody;
  signal: AbortSignal;
  /** Writes the turn still owes the store (the person's message indexing); runs after the first text is shown. */
  settleUser?: () => void;
  /**
   * Runs once the request is sent, before its answer is read: makes the person's message durable
   * (PersistMessage); what it throws stops the request and fails the step.
   */
  whileInFlight?: () => void;
}

export type ModelStepResult =
  /** `route` answered (the main one or a fallback): with the body, what the turn sent. */
  | { kind: "ok"; outcome: ChatOutcome; reply: MessageRecord; route: Route }
  | { kind: "stopped"; reply: MessageRecord }
  | { kind: "error"; error: string; reply: MessageRecord };

export async function runModelStep(deps: ModelStepDeps, input: ModelStepInput): Promise<ModelStepResult> {
  const { sessionId, turnId, gatewaySessionKey } = input;
  const skipped: FallbackStep[] = [];
  let text = "";
  let reply: MessageRecord | null = null;
  let answeringRoute: Route | null = null;
  let writer: DeltaWriter | null = null;

  const replyMeta = (route: Route, answered: boolean): MessageMeta => ({
    provider: route.providerId,
    model: route.model,
    ...(answered && skipped.length ? { fallbackFrom: skipped.map((s) => s.route.providerId) } : {}),
  });

  /**
   * The reply's row, announced to clients with its first text, shown as it is written (with the
   * person's message still only logged, in one commit). A reply from a fallback comes after the
   * notice saying who answered. The turn's deferred indexing follows, off the path to the first token.
   */
  const ensureReply = (route: Route, answered = true, firstText = ""): MessageRecord => {
    if (reply) return reply;
    if (answered && skipped.length) {
      const failures = skipped.map((s) => `${s.route.providerName} failed: ${s.error.message}`).join(" ");
      deps.transcript.append({
        sessionId,
        turnId,
        role: "notice",
        content: `Answered by ${route.providerName} (${route.model}), a fallback provider. ${failures}`,
        meta: { notice: "fallback", provider: route.providerId, model: route.model },
      });
    }
    const row = {
      sessionId,
      turnId,
      role: "assistant",
      status: "streaming",
      content: firstText,
      meta: replyMeta(route, answered),
    } as const;
    reply = deps.transcript.appendReplyShowing(row, (announced) => {
      writer = new DeltaWriter(
        {
          write: (chunk) => void deps.store().appendDelta(announced.id, chunk),
          emit: (chunk) => deps.transcript.emit("session.delta", sessionId, { turnId, text: chunk }),
        },
        deps.deltaFrame,
      );
      writer.pushWritten(firstText);
    });
    try {
      input.settleUser?.();
    } catch {
      // Only its indexing is late; the turn settles it again as it ends, the next open otherwise.
    }
    return reply;
  };

  const attempt = async (route: Route): Promise<ChatOutcome> => {
    answeringRoute = route;
    const scope = { sessionId, gatewaySessionKey, provider: route.providerId, model: route.model };
    // No await when nobody listens: each hop sits in front of the first token.
    if (deps.hooks.count("pre_api_request")) {
      // A plugin's hook may take its time: what the turn holds in memory is written first.
      input.whileInFlight?.();
      await deps.hooks.fire("pre_api_request", scope);
    }
    const outcome = await deps.engine.stream(route, input.body, {
      signal: input.signal,
      ...(input.whileInFlight ? { whileInFlight: input.whileInFlight } : {}),
      onDelta: (chunk) => {
        text += chunk;
        if (reply) writer?.push(chunk);
        else ensureReply(route, true, chunk);
      },
    });
    if (hasUsage(outcome)) deps.store().addUsage(sessionId, usageEntry("chat", outcome.usage));
    await deps.hooks.fire("post_api_request", { ...scope, usage: outcome.usage });
    return outcome;
  };

  try {
    const { result: outcome, route } = await runWithFallback(
      input.routes,
      attempt,
      () => reply === null && !input.signal.aborted,
      (step) => skipped.push(step),
    );
    const final = ensureReply(route);
    (writer as DeltaWriter | null)?.finish();
    const toolCalls = outcome.toolCalls.map((c) => ({
      id: c.id,
      name: c.function.name,
      arguments: c.function.arguments,
    }));
    const status = !outcome.stopped
      ? "complete"
      : input.signal.reason instanceof HostShutdownAbort
        ? "interrupted"
        : "stopped";
    // The text streamed is the reply's text, written and shown chunk by chunk: it is not written
    // (or sent to clients) a second time, unless the answer's final text differs or a write failed.
    const streamedAsStored = outcome.text === text && !(writer as DeltaWriter | null)?.failed;
    const saved = deps.transcript.update(final.id, {
      ...(streamedAsStored ? {} : { content: outcome.text }),
      status,
      meta: { model: outcome.model, ...(toolCalls.length && !outcome.stopped ? { toolCalls } : {}) },
    });
    return outcome.stopped ? { kind: "stopped", reply: saved } : { kind: "ok", outcome, reply: saved, route };
  } catch (error) {
    (writer as DeltaWriter | null)?.finish();
    // The store refused the person's message: no reply row either; the turn reports it.
    if (error instanceof MessageNotSavedError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    const route = answeringRoute ?? input.routes[0];
    const target = reply ?? (route ? ensureReply(route, false) : null);
    if (!target) throw error;
    const failure = error instanceof ProviderRequestError ? error : null;
    const missingKeyOf = failure?.missingKey ? failure.providerId : null;
    const missingModel = failure?.missingModel
      ? { provider: failure.providerId, model: failure.missingModel }
      : null;
    const saved = deps.transcript.update(target.id, {
      content: text,
      status: "error",
      // `missingKey` names the provider, so the transcript can offer to add its key; `missingModel`
      // the model the provider does not have, so it can offer the model list.
      meta: {
        error: message,
        ...(missingKeyOf ? { missingKey: missingKeyOf } : {}),
        ...(missingModel ? { missingModel } : {}),
      },
    });
    return { kind: "error", error: message, reply: saved };
  }
}

function hasUsage(outcome: ChatOutcome): boolean {
  const u = outcome.usage;
  return u.inputTokens > 0 || u.outputTokens > 0 || u.costUsd !== null;
}
