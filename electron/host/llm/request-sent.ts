/**
 * Tells when a request has gone out: its body is handed to the socket. Node's fetch (undici)
 * reports each request's life on `diagnostics_channel`; a caller names the URL it is about to
 * request and takes the next request created for it. Why: the chat writes the person's message
 * while the request is in flight, not in front of it (sessions/stream-step.ts).
 */
import diagnostics from "node:diagnostics_channel";

/** On a new connection the handshake may be slow: the caller is not kept waiting longer than this. */
export const MAX_WAIT_FOR_SEND_MS = 250;

type UndiciRequest = { origin?: string; path?: string };
type Claim = { url: string; sent: () => void };

const claims: Claim[] = [];
const claimed = new WeakMap<object, () => void>();
let subscribed = false;

function subscribe(): void {
  if (subscribed) return;
  subscribed = true;
  diagnostics.subscribe("undici:request:create", (message) => {
    const request = (message as { request?: UndiciRequest }).request;
    if (!request) return;
    const url = `${request.origin ?? ""}${request.path ?? ""}`;
    const index = claims.findIndex((claim) => claim.url === url);
    if (index < 0) return;
    const [claim] = claims.splice(index, 1);
    claimed.set(request, claim!.sent);
  });
  // Sent in full, or over (answered, failed): either way it is no longer in front of the caller.
  for (const channel of ["undici:request:bodySent", "undici:request:headers", "undici:request:error"]) {
    diagnostics.subscribe(channel, (message) => {
      const request = (message as { request?: object }).request;
      const sent = request && claimed.get(request);
      if (!sent) return;
      claimed.delete(request);
      sent();
    });
  }
}

/**
 * Resolves once the next request for `url` (origin and path, as fetch sends it) has been sent,
 * or after `MAX_WAIT_FOR_SEND_MS`, or when `abandon` is called (the request failed before).
 */
export function whenSent(url: string): { sent: Promise<void>; abandon: () => void } {
  subscribe();
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
