/**
 * The `fetch` the providers' SDK clients use: the same HTTP/1.1 exchange as Node's global fetch,
 * on node:http / node:https with keep-alive agents. Why: undici's fetch spends ~150–200 µs of
 * main-thread time per request on its WHATWG machinery (Request, Headers, body streams) before the
 * request reaches the socket; that time sits in front of every first token. The SDK still builds,
 * sends and parses the request; only the socket work is done here.
 *
 * It behaves as fetch does where the SDK can tell: a connection failure rejects with
 * `TypeError("fetch failed")` whose cause carries the socket's code, a body cut off mid-way errors
 * with `TypeError("terminated")`, an abort with an `AbortError`, compressed answers are
 * decompressed. A request it does not handle itself (a body other than text or bytes, a redirect)
 * goes to the global fetch.
 */
import http from "node:http";
import https from "node:https";
import type { Readable } from "node:stream";
import zlib from "node:zlib";
import { takeSendClaim } from "./request-sent.js";

type FetchInput = Parameters<typeof fetch>[0];
type FetchInit = NonNullable<Parameters<typeof fetch>[1]>;

// As Node's own global agents: sockets are reused, and an idle one is closed after 5 s, before
// servers usually drop theirs (a reused socket the server already closed fails the request).
const agentOptions = { keepAlive: true, scheduling: "lifo", timeout: 5_000 } as const;
const agents = { "http:": new http.Agent(agentOptions), "https:": new https.Agent(agentOptions) };

const nullBodyStatus = new Set([101, 103, 204, 205, 304]);
const redirectStatus = new Set([301, 302, 303, 307, 308]);
const decoders: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: () => zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH }),
  "x-gzip": () => zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH }),
  deflate: () => zlib.createInflate({ flush: zlib.constants.Z_SYNC_FLUSH }),
  br: () => zlib.createBrotliDecompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH }),
};

export const httpFetch: typeof fetch = (input: FetchInput, init: FetchInit = {}) => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : null;
  const body = init.body;
  const sendable =
    body === undefined || body === null || typeof body === "string" || body instanceof Uint8Array;
  const target = url === null ? null : URL.canParse(url) ? new URL(url) : null;
  if (target && sendable && target.protocol in agents) return request(target, init, body);
  // Handed over whole: whoever waits for this request to go out need not wait longer.
  if (target) takeSendClaim(target)?.();
  return fetch(input, init);
};

/**
 * A kept-alive socket the server closed just as it was reused: the request fails at once with a
 * reset before any answer, though nothing reached the server. It is sent again once, on a new
 * socket (as Node's docs advise for `reusedSocket`); a reset on a fresh socket is a real failure.
 */
function staleSocket(req: http.ClientRequest | undefined, error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return req?.reusedSocket === true && (code === "ECONNRESET" || code === "EPIPE");
}

function request(
  target: URL,
  init: FetchInit,
  body: string | Uint8Array | null | undefined,
  retry: { sent: (() => void) | undefined } | null = null,
): Promise<Response> {
  const { signal } = init;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  const protocol = target.protocol as keyof typeof agents;
  const headers = headerRecord(init.headers);
  headers["accept-encoding"] ??= "gzip, deflate, br";
  const sent = retry ? retry.sent : takeSendClaim(target);
  const method = (init.method ?? "GET").toUpperCase();
  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    const fail = (error: unknown) => {
      if (!settled && !retry && !signal?.aborted && staleSocket(req, error)) {
        done();
        settled = true;
        resolve(request(target, init, body, { sent }));
        return;
      }
      sent?.();
      done();
      if (settled) return;
      settled = true;
      reject(signal?.aborted ? abortError(signal) : new TypeError("fetch failed", { cause: error }));
    };
    const onAbort = () => req?.destroy(new DOMException("This operation was aborted", "AbortError"));
    const done = () => signal?.removeEventListener("abort", onAbort);
    let req: http.ClientRequest | undefined;
    try {
      req = (protocol === "https:" ? https : http).request(target, {
        method,
        headers,
        agent: agents[protocol],
      });
    } catch (error) {
      // A header Node refuses to send (a line break in a value) or the like: nothing went out.
      fail(error);
      return;
    }
    signal?.addEventListener("abort", onAbort, { once: true });
    req.once("finish", () => sent?.());
    // `on`, not `once`: a second error from a socket must never go unheard (it would crash the host).
    req.on("error", fail);
    req.once("response", (res) => {
      if (settled) return void res.destroy();
      try {
        const response = answer(target, init, method, res, signal, done);
        settled = true;
        resolve(response);
      } catch (error) {
        // An answer fetch would refuse too (a status outside 200–599): the request failed.
        res.destroy();
        fail(error);
      }
    });
    req.end(body ?? undefined);
  });
}

/**
 * Builds and reads one answer the way a provider's streamed answer is built and read, with no
 * request: Node loads its fetch machinery (Headers, Response, web streams) on first use, ~50 ms
 * here, which the host's warm-up takes off the first turn's way to its first token.
 */
export async function warmUpHttpFetch(): Promise<void> {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode("data: {}\n\n"));
      controller.close();
    },
  });
  const response = new Response(body, {
    status: 200,
    headers: new Headers({ "content-type": "text/event-stream" }),
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  for (let read = await reader.read(); !read.done; read = await reader.read())
    decoder.decode(read.value, { stream: true });
}

function answer(
  target: URL,
  init: FetchInit,
  method: string,
  res: http.IncomingMessage,
  signal: AbortSignal | null | undefined,
  done: () => void,
): Response | Promise<Response> {
  const status = res.statusCode ?? 0;
  if (redirectStatus.has(status) && init.redirect !== "manual") {
    // Rare for an API; fetch's redirect rules (method changes, limits, "error") apply as they are.
    res.resume();
    done();
    return fetch(target.href, init);
  }
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
    try {
      headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
    } catch {
      // A header fetch could not represent is left out, not the whole answer.
    }
  }
  const empty = nullBodyStatus.has(status) || method === "HEAD";
  if (empty) {
    res.resume();
    done();
  }
  const body = empty ? null : bodyStream(res, signal, done);
  return new Response(body, { status, statusText: res.statusMessage ?? "", headers });
}

/**
 * The answer's body as a web stream, pulled as the reader reads (backpressure pauses the socket).
 * Decompressed when the server compressed it; errors as fetch's body does.
 */
function bodyStream(
  res: http.IncomingMessage,
  signal: AbortSignal | null | undefined,
  done: () => void,
): ReadableStream<Uint8Array> {
  const encoding = String(res.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  const decoder = decoders[encoding]?.();
  const source: Readable = decoder ? (res.pipe(decoder) as unknown as Readable) : res;
  let finished = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const fail = (error: unknown) => {
          if (finished) return;
          finished = true;
          done();
          controller.error(
            signal?.aborted ? abortError(signal) : new TypeError("terminated", { cause: error }),
          );
          source.destroy();
          res.destroy();
        };
        source.on("data", (chunk: Buffer) => {
          if (finished) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 1) <= 0) source.pause();
        });
        source.once("end", () => {
          if (finished) return;
          finished = true;
          done();
          controller.close();
        });
        source.once("error", fail);
        // The socket closed before the whole answer came (or the request was aborted).
        res.once("aborted", () => fail(new Error("other side closed")));
        res.once("error", fail);
        res.once("close", () => {
          if (!res.complete) fail(new Error("other side closed"));
        });
      },
      pull() {
        source.resume();
      },
      cancel() {
        finished = true;
        done();
        source.destroy();
        res.destroy();
      },
    },
    // Bytes, not chunks: a fast stream's many small chunks would otherwise pause the socket each.
    new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
  );
}

function headerRecord(headers: FetchInit["headers"]): Record<string, string> {
  const record: Record<string, string> = {};
  if (!headers) return record;
  const entries = headers instanceof Headers || Array.isArray(headers) ? headers : Object.entries(headers);
  for (const [name, value] of entries as Iterable<[string, string]>) record[name.toLowerCase()] = value;
  return record;
}

/** What fetch rejects with on an abort: the signal's reason, an `AbortError` when it gave none. */
function abortError(signal: AbortSignal | null | undefined): unknown {
  return signal?.reason ?? new DOMException("This operation was aborted", "AbortError");
}
