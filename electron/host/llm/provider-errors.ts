/** Turns what the SDK throws into one plain sentence a user can act on. Never includes a key. */
import OpenAI from "openai";

const statusHints: Record<number, string> = {
  400: "the provider rejected the request",
  401: "the API key was not accepted; check the key in Settings → Providers",
  403: "the API key is not allowed to do this",
  404: "the address was not found; check the base URL (it usually ends in /v1)",
  408: "the provider timed out; try again in a moment",
  413: "the request is too large for this provider",
  429: "the provider is rate limiting you or your credit ran out; wait a moment or add credit",
  500: "the provider had an internal error; try again in a moment, or add a fallback provider in Settings → Providers",
  502: "the provider's gateway failed; try again in a moment, or add a fallback provider in Settings → Providers",
  503: "the provider is overloaded or down; try again in a moment, or add a fallback provider in Settings → Providers",
  504: "the provider's gateway timed out; try again in a moment, or add a fallback provider in Settings → Providers",
};

const messageOf = (err: InstanceType<typeof OpenAI.APIError>): string => {
  const body = err.error as { message?: unknown } | undefined;
  if (body && typeof body.message === "string" && body.message) return body.message;
  return "";
};

export function describeProviderError(err: unknown, providerName: string, baseURL: string): string {
  if (err instanceof OpenAI.APIConnectionTimeoutError) {
    return `${providerName} did not answer in time (${baseURL}). Check that it is running and reachable.`;
  }
  if (err instanceof OpenAI.APIConnectionError) {
    const why = connectionFailure(err.cause);
    return `Could not reach ${providerName} at ${baseURL}: ${why}. Check the base URL and that the server is running.`;
  }
  if (err instanceof OpenAI.APIError && typeof err.status === "number") {
    const hint =
      statusHints[err.status] ??
      (err.status >= 500 ? "the provider had an error; try again in a moment" : "the request failed");
    const detail = messageOf(err);
    return `${providerName} answered ${err.status}: ${hint}.${detail ? ` It said: "${detail.slice(0, 300)}"` : ""}`;
  }
  if (err instanceof SyntaxError) {
    return `${providerName} answered something that is not valid JSON; check that ${baseURL} is an OpenAI-compatible endpoint.`;
  }
  const message = err instanceof Error ? err.message : String(err);
  return `${providerName} failed: ${message}`;
}

const connectionCodes: Record<string, string> = {
  ECONNREFUSED: "connection refused (nothing is listening there)",
  ENOTFOUND: "the host name could not be found",
  EAI_AGAIN: "the host name could not be looked up (no network?)",
  ECONNRESET: "the connection was reset",
  ETIMEDOUT: "the connection timed out",
  EHOSTUNREACH: "the host is unreachable",
  CERT_HAS_EXPIRED: "its TLS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "its TLS certificate is self-signed",
};

/** fetch wraps the socket error ("fetch failed" → cause with a code); find the code that explains it. */
function connectionFailure(cause: unknown): string {
  for (let c = cause, depth = 0; c && depth < 4; c = (c as { cause?: unknown }).cause, depth++) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === "string") return connectionCodes[code] ?? code;
  }
  return "the connection failed";
}
