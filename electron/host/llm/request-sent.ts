/**
 * Tells when a request has gone out: its body is handed to the socket. A caller names the URL it
 * is about to request; the providers' transport (http-fetch.ts) takes the claim as it starts that
 * request and calls it once the request is sent. Why: the chat writes the person's message while
 * the request is in flight, not in front of it (sessions/turns/stream-step.ts).
 */
/** On a new connection the handshake may be slow: the caller is not kept waiting longer than this. */
export const MAX_WAIT_FOR_SEND_MS = 250;

type Claim = { url: string; sent: () => void };

/** How a claim names a request: origin, path and query (no credentials, no fragment). */
export function sendKey(url: URL): string {
  return `${url.origin}${url.pathname}${url.search}`;
}

const claims: Claim[] = [];

/**
 * For the transport (http-fetch.ts), as it starts a request for `url`: the oldest waiting claim
 * on that URL, to call once the request has been sent (or has failed); undefined when none waits.
 */
export function takeSendClaim(url: URL): (() => void) | undefined {
  const key = sendKey(url);
  const index = claims.findIndex((claim) => claim.url === key);
  if (index < 0) return undefined;
  const [claim] = claims.splice(index, 1);
  return claim!.sent;
}

/**
 * Resolves once the next request for `url` (origin and path, as fetch sends it) has been sent,
 * or after `MAX_WAIT_FOR_SEND_MS`, or when `abandon` is called (the request failed before).
 */
export function whenSent(url: string): { sent: Promise<void>; abandon: () => void } {
  let done: () => void = () => undefined;
  const sent = new Promise<void>((resolve) => (done = resolve));
  const claim: Claim = { url, sent: () => finish() };
  const timer = setTimeout(() => finish(), MAX_WAIT_FOR_SEND_MS);
  timer.unref();
  const finish = () => {
    clearTimeout(timer);
    const index = claims.indexOf(claim);
    if (index >= 0) claims.splice(index, 1);
    done();
  };
  claims.push(claim);
  return { sent, abandon: finish };
}
