/**
 * The loopback redirect of an OAuth sign-in (RFC 8252 §7.3): an HTTP listener on 127.0.0.1 (a
 * free port, or `oauth.redirect_port`) that takes the one redirect to `/callback`, answers the
 * browser with a page saying how the sign-in ended, and closes. Nothing but `/callback` is served.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const CALLBACK_PATH = "/callback";

/** What the authorization server sent back: a code, or its error. */
export type CallbackAnswer =
  | { kind: "code"; code: string; state: string | null }
  | { kind: "error"; error: string; description: string | null; state: string | null };

export interface LoopbackCallback {
  redirectUrl: string;
  /** The redirect's answer; rejects when the listener is closed first (cancelled, timed out). */
  answer: Promise<CallbackAnswer>;
  /** Ends the browser's page with how the sign-in ended; the listener closes after. */
  finish(outcome: { ok: true; serverId: string } | { ok: false; reason: string }): void;
  close(why?: string): void;
}

export async function listenForCallback(port: number): Promise<LoopbackCallback> {
  let settle!: { resolve: (answer: CallbackAnswer) => void; reject: (error: Error) => void };
  const answer = new Promise<CallbackAnswer>((resolve, reject) => (settle = { resolve, reject }));
  answer.catch(() => undefined); // A listener closed before anyone waits is not an unhandled rejection.
  let pending: ServerResponse | null = null;
  let answered = false;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method !== "GET" || url.pathname !== CALLBACK_PATH || answered) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found");
      return;
    }
    answered = true;
    pending = res;
    const state = url.searchParams.get("state");
    const error = url.searchParams.get("error");
    const code = url.searchParams.get("code");
    if (error !== null) {
      settle.resolve({ kind: "error", error, description: url.searchParams.get("error_description"), state });
    } else if (code) {
      settle.resolve({ kind: "code", code, state });
    } else {
      settle.resolve({
        kind: "error",
        error: "invalid_request",
        description: "no code in the redirect",
        state,
      });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port: bound } = server.address() as AddressInfo;
  const close = (why = "the sign-in was cancelled") => {
    settle.reject(new Error(why));
    server.closeAllConnections();
    server.close();
  };
  return {
    redirectUrl: `http://127.0.0.1:${bound}${CALLBACK_PATH}`,
    answer,
    finish(outcome) {
      const res = pending;
      pending = null;
      if (res) {
        res.writeHead(outcome.ok ? 200 : 400, {
          "content-type": "text/html; charset=utf-8",
          "cache-control": "no-store",
          connection: "close",
        });
        res.end(page(outcome));
      }
      // Closed once the page is sent, so the browser gets it whole.
      setImmediate(() => close());
    },
    close,
  };
}

function page(outcome: { ok: true; serverId: string } | { ok: false; reason: string }): string {
  const message = outcome.ok
    ? `Signed in to the MCP server “${escapeHtml(outcome.serverId)}”. You can close this tab and return to Hermes Desktop.`
    : `Sign-in failed: ${escapeHtml(outcome.reason)}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hermes Desktop</title></head><body><p>${message}</p></body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
