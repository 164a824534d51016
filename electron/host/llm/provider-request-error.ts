/** A provider request that failed, in plain words, with what the fallback chain needs to know. */
import OpenAI from "openai";
import { describeProviderError } from "./provider-errors.js";
import type { Route } from "./route.js";

export type ProviderFailureKind = "http" | "connection" | "timeout" | "malformed" | "context_length";

export class ProviderRequestError extends Error {
  override readonly name = "ProviderRequestError";
  readonly reason = "provider_error" as const;
  constructor(
    message: string,
    readonly kind: ProviderFailureKind,
    readonly providerId: string,
    readonly status: number | null,
    /** The provider refused a request that carried no key because none is stored. */
    readonly missingKey = false,
    /** The provider said the route's model does not exist (404 `model_not_found`): its id. */
    readonly missingModel: string | null = null,
  ) {
    super(message);
  }

  /** 429 and 5xx go to the next fallback provider (docs/contract.md §6.1). */
  get retryable(): boolean {
    return this.status === 429 || (this.status !== null && this.status >= 500);
  }
}

/** A 404 that is about the model, not the address: `model_not_found`, or words saying so. */
const modelNotFoundPattern =
  /model_not_found|model\b.*\b(does not exist|not found|not exist|unknown)|(no|unknown) model/i;

const contextLengthPattern =
  /context[_ ]length|maximum context|context window|too many tokens|prompt is too long/i;

export function toProviderRequestError(err: unknown, route: Route): ProviderRequestError {
  if (err instanceof ProviderRequestError) return err;
  const name = route.providerName;
  if (err instanceof OpenAI.APIConnectionTimeoutError) {
    return new ProviderRequestError(
      describeProviderError(err, name, route.baseURL),
      "timeout",
      route.providerId,
      null,
    );
  }
  if (err instanceof OpenAI.APIConnectionError) {
    return new ProviderRequestError(
      describeProviderError(err, name, route.baseURL),
      "connection",
      route.providerId,
      null,
    );
  }
  if (err instanceof OpenAI.APIError) {
    const body = (err.error ?? {}) as { code?: unknown; message?: unknown };
    const text = `${String(body.code ?? "")} ${String(body.message ?? err.message)}`;
    if (err.status === 400 || err.status === 413 || contextLengthPattern.test(text)) {
      if (contextLengthPattern.test(text)) {
        return new ProviderRequestError(
          `The conversation is longer than ${route.model} can read at once (its context window). ` +
            "Start a new chat, delete or shorten long messages, or pick a model with a larger context.",
          "context_length",
          route.providerId,
          err.status ?? null,
        );
      }
    }
    if (err.status === 404 && modelNotFoundPattern.test(text)) {
      const said =
        typeof body.message === "string" && body.message ? ` It said: "${body.message.slice(0, 300)}"` : "";
      return new ProviderRequestError(
        `${name} has no model "${route.model}" (it answered 404). Pick one from its model list.${said}`,
        "http",
        route.providerId,
        404,
        false,
        route.model,
      );
    }
    if (typeof err.status === "number") {
      return new ProviderRequestError(
        describeProviderError(err, name, route.baseURL),
        "http",
        route.providerId,
        err.status,
      );
    }
    // A mid-stream `error` frame or an unparseable stream: the SDK raises an APIError without status.
    const detail = typeof body.message === "string" ? body.message : err.message;
    return new ProviderRequestError(
      `${name} broke off the reply with an error: ${detail}. Send your message again to retry.`,
      /parse|JSON/i.test(err.message) ? "malformed" : "http",
      route.providerId,
      null,
    );
  }
  if (err instanceof SyntaxError) {
    return new ProviderRequestError(
      `${name} answered something that is not valid OpenAI-format data (${err.message}); check that ${route.baseURL} is an OpenAI-compatible endpoint.`,
      "malformed",
      route.providerId,
      null,
    );
  }
  const message = err instanceof Error ? err.message : String(err);
  if (/terminated|socket|ECONNRESET|premature close|other side closed/i.test(message)) {
    return new ProviderRequestError(
      `The connection to ${name} dropped before the reply finished (${message}). Send your message again to retry; check your network if it keeps happening.`,
      "connection",
      route.providerId,
      null,
    );
  }
  return new ProviderRequestError(`${name} failed: ${message}`, "http", route.providerId, null);
}
