/**
 * The request engine: one chat request to one route through the `openai` SDK, streamed or not.
 * It owns client reuse, the idle watchdog and error translation; fallback lives in fallback.ts.
 * It is also where provider text enters the app, so everything it hands out (replies, deltas,
 * tool-call arguments, error messages) is redacted here with the vault's keys, whatever
 * `security.redact_secrets` says: a provider quoting a key never gets it shown, stored or logged.
 */
import type OpenAI from "openai";
import { systemClock, type Clock } from "../clock.js";
import { createRedactor, type Redact } from "../secrets/redaction.js";
import { StreamRedactor } from "../secrets/stream-redactor.js";
import type { Vault } from "../secrets/vault.js";
import type { ChatBody, ToolCall } from "./chat-request.js";
import { createProviderClient } from "./provider-client.js";
import { ProviderRequestError, toProviderRequestError } from "./provider-request-error.js";
import { requestKey, withKeychainHint, type RequestKey } from "./request-key.js";
import { sendKey, whenSent } from "./request-sent.js";
import type { Route } from "./route.js";
import { readChatChunks } from "./sse-reader.js";
import { emptyUsage, mapUsage, type Usage } from "./usage.js";

export interface ChatOutcome {
  text: string;
  toolCalls: ToolCall[];
  usage: Usage;
  finishReason: string | null;
  /** The model the response names, else the route's. */
  model: string;
  /** The request was aborted by the caller (stop): what came so far is in `text`. */
  stopped: boolean;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Whole-request bound for non-streamed calls; for streams, the longest silence between chunks. */
  timeoutMs?: number;
  onDelta?: (text: string) => void;
  /**
   * Streams only: runs once the request has gone out, before any of its answer is read (the chat
   * writes the person's message here, overlapping the round trip). What it throws stops the
   * request and is thrown as is.
   */
  whileInFlight?: () => void;
}

const defaultTimeoutMs = 120_000;

export class ChatEngine {
  private readonly clients = new Map<string, OpenAI>();
  private readonly redactor: Redact;

  constructor(
    private readonly vault: Vault,
    private readonly clock: Clock = systemClock,
  ) {
    this.redactor = createRedactor({ knownKeys: () => vault.knownKeys(), enabled: () => true }).redact;
  }

  /** Masks secrets and every key the vault knows, always (text from providers and tools). */
  redact(text: string): string {
    return this.redactor(text, { force: true });
  }

  private redactedError(error: ProviderRequestError): ProviderRequestError {
    const message = this.redact(error.message);
    if (message === error.message) return error;
    return new ProviderRequestError(message, error.kind, error.providerId, error.status);
  }

  private redactedCalls(calls: ToolCall[]): ToolCall[] {
    return calls.map((c) => ({
      ...c,
      function: { ...c.function, arguments: this.redact(c.function.arguments) },
    }));
  }

  private async client(route: Route): Promise<{ client: OpenAI; key: RequestKey }> {
    const key = await requestKey(this.vault, route.providerId, route.keyEnv, route.profile);
    const apiKey = key.apiKey;
    // Clients are reused so each call skips SDK setup; the key is part of the identity.
    const id = `${route.baseURL}\u0000${apiKey ?? ""}`;
    let client = this.clients.get(id);
    if (!client) {
      client = createProviderClient({ baseURL: route.baseURL, apiKey });
      if (this.clients.size > 32) this.clients.clear();
      this.clients.set(id, client);
    }
    return { client, key };
  }

  private requestBody(route: Route, body: ChatBody): Record<string, unknown> {
    return {
      ...route.extraBody,
      ...body,
      model: route.model,
      ...(route.reasoningEffort ? { reasoning_effort: route.reasoningEffort } : {}),
    };
  }

  async complete(route: Route, body: ChatBody, options: RequestOptions = {}): Promise<ChatOutcome> {
    const { client, key } = await this.client(route);
    const timeout =
      options.timeoutMs ?? (route.timeoutSeconds ? route.timeoutSeconds * 1000 : defaultTimeoutMs);
    try {
      const response = (await client.chat.completions.create(
        { ...this.requestBody(route, body), stream: false } as never,
        { signal: options.signal, timeout },
      )) as unknown as OpenAI.Chat.Completions.ChatCompletion;
      if (!response || !Array.isArray(response.choices)) {
        throw new ProviderRequestError(
          `${route.providerName} answered without any choices; check that ${route.baseURL} is OpenAI-compatible.`,
          "malformed",
          route.providerId,
          null,
        );
      }
      const choice = response.choices[0];
      return {
        text: this.redact(choice?.message?.content ?? ""),
        toolCalls: this.redactedCalls(
          (choice?.message?.tool_calls ?? []).filter((c) => c.type === "function") as ToolCall[],
        ),
        usage: mapUsage(response.usage),
        finishReason: choice?.finish_reason ?? null,
        model: this.redact(response.model || route.model),
        stopped: false,
      };
    } catch (err) {
      throw this.redactedError(withKeychainHint(toProviderRequestError(err, route), key, route));
    }
  }

  async stream(route: Route, body: ChatBody, options: RequestOptions = {}): Promise<ChatOutcome> {
    const { client, key } = await this.client(route);
    const idleMs =
      options.timeoutMs ?? (route.timeoutSeconds ? route.timeoutSeconds * 1000 : defaultTimeoutMs);
    const watchdog = new AbortController();
    const abortFromCaller = () => watchdog.abort();
    options.signal?.addEventListener("abort", abortFromCaller, { once: true });
    if (options.signal?.aborted) watchdog.abort();
    let idle = false;
    // One timer for the whole stream: a chunk only stamps the time, and the timer re-arms itself
    // for the rest of the window when it fires early — no timer churn per chunk.
    let lastActivity = this.clock.now();
    const check = () => {
      const quietFor = this.clock.now() - lastActivity;
      if (quietFor >= idleMs) {
        idle = true;
        watchdog.abort();
      } else timer = this.clock.setTimeout(check, idleMs - quietFor);
    };
    let timer = this.clock.setTimeout(check, idleMs);
    const kick = () => {
      lastActivity = this.clock.now();
    };

    let text = "";
    // Deltas are released redacted, a secret never in two halves; `text` is what was released.
    const shown = new StreamRedactor(this.redactor, () => this.vault.knownKeys());
    /** What the caller's own callbacks threw: theirs to meet, so it leaves as it is, not as a provider error. */
    let callerFailure: { error: unknown } | null = null;
    const release = (piece: string) => {
      if (!piece) return;
      text += piece;
      try {
        options.onDelta?.(piece);
      } catch (error) {
        callerFailure = { error };
        watchdog.abort();
        throw error;
      }
    };
    let usage: Usage = emptyUsage();
    let finishReason: string | null = null;
    let model = route.model;
    const calls: { id: string; name: string; arguments: string }[] = [];
    const stream = { done: false };
    try {
      const sending = options.whileInFlight ? whenSent(chatCompletionsURL(route.baseURL)) : null;
      // The raw response, read by our own SSE reader (sse-reader.ts says why); a refusal (4xx/5xx)
      // is still the SDK's APIError, thrown before any body is read.
      const request = client.chat.completions
        .create(
          {
            ...this.requestBody(route, body),
            stream: true,
            stream_options: { include_usage: true },
          } as never,
          { signal: watchdog.signal },
        )
        .asResponse();
      if (options.whileInFlight && sending) {
        // A failure while the caller waits is met by the `await` below (or dropped after an abort).
        request.catch(() => undefined).finally(sending.abandon);
        await sending.sent;
        try {
          options.whileInFlight();
        } catch (error) {
          callerFailure = { error };
          watchdog.abort();
          throw error;
        }
      }
      const response = await request;
      // An abort mid-stream ends this loop with an AbortError, met below; `stopped` tells it apart.
      for await (const batch of readChatChunks(response, stream)) {
        kick();
        // One network read's deltas leave as one piece: a single redaction scan and one hand-over.
        let content = "";
        for (const chunk of batch) {
          if (chunk.model) model = chunk.model;
          if (chunk.usage) usage = mapUsage(chunk.usage);
          const choice = chunk.choices?.[0];
          if (!choice) continue;
          const delta = choice.delta ?? {};
          if (delta.content) content += delta.content;
          for (const part of delta.tool_calls ?? []) {
            const slot = (calls[part.index] ??= { id: "", name: "", arguments: "" });
            if (part.id) slot.id = part.id;
            if (part.function?.name) slot.name += part.function.name;
            if (part.function?.arguments) slot.arguments += part.function.arguments;
          }
          if (choice.finish_reason) finishReason = choice.finish_reason;
        }
        if (content) release(shown.push(content));
      }
    } catch (err) {
      if (callerFailure) throw callerFailure.error;
      if (!(options.signal?.aborted || idle)) {
        release(shown.flush());
        throw this.redactedError(withKeychainHint(toProviderRequestError(err, route), key, route));
      }
    } finally {
      this.clock.clearTimeout(timer);
      options.signal?.removeEventListener("abort", abortFromCaller);
    }
    release(shown.flush());
    if (idle && !options.signal?.aborted) {
      throw new ProviderRequestError(
        `${route.providerName} stopped sending for ${Math.round(idleMs / 1000)} s; the reply so far is kept. ` +
          "Send your message again to retry, or pick another model if it keeps happening.",
        "timeout",
        route.providerId,
        null,
      );
    }
    // A body that ended with neither a finish reason nor `[DONE]` was cut short (a proxy, a crash
    // upstream): what came is kept, but it is no complete reply.
    if (!options.signal?.aborted && finishReason === null && !stream.done) {
      throw new ProviderRequestError(
        `${route.providerName}'s reply ended before it was finished (the stream stopped without saying it was done); ` +
          "the reply so far is kept. Send your message again to retry.",
        "connection",
        route.providerId,
        null,
      );
    }
    return {
      text,
      toolCalls: calls
        .filter((c) => c && c.name)
        .map((c, i) => ({
          id: c.id || `call_${i}`,
          type: "function" as const,
          function: { name: c.name, arguments: this.redact(c.arguments) },
        })),
      usage,
      finishReason,
      model: this.redact(model),
      stopped: options.signal?.aborted ?? false,
    };
  }
}

/** Parsed once per endpoint: a URL parse per request sat in front of every first token. */
const completionsURLs = new Map<string, string>();

/** Where the SDK posts a chat request, named as the transport's send claims name it. */
function chatCompletionsURL(baseURL: string): string {
  let known = completionsURLs.get(baseURL);
  if (known === undefined) {
    try {
      known = sendKey(new URL(`${baseURL.replace(/\/+$/, "")}/chat/completions`));
    } catch {
      known = baseURL;
    }
    if (completionsURLs.size > 64) completionsURLs.clear();
    completionsURLs.set(baseURL, known);
  }
  return known;
}
