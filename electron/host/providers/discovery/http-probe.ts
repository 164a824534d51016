/**
 * One bounded HTTP request to a local port, told apart the way discovery needs: nobody listening
 * (left out), a listener that never answers within the deadline (not a model server), or an answer
 * (its status, content type and at most `maxBodyBytes` of body). Plain node:http so a refused
 * connection and a silent one are different outcomes, which `fetch` does not say.
 */
import http from "node:http";
import https from "node:https";

export type ProbeAnswer =
  | { kind: "unreachable" }
  | { kind: "silent" }
  | { kind: "answered"; status: number; contentType: string; body: string; truncated: boolean };

export interface ProbeRequest {
  url: string;
  method?: "GET" | "POST";
  /** Sent as JSON. */
  json?: unknown;
  /** Absolute time (Date.now()) by which the answer must be complete. */
  deadline: number;
  maxBodyBytes?: number;
}

const defaultMaxBody = 1024 * 1024;

export function probeHttp(request: ProbeRequest): Promise<ProbeAnswer> {
  const remaining = request.deadline - Date.now();
  if (remaining <= 0) return Promise.resolve({ kind: "silent" });
  const maxBody = request.maxBodyBytes ?? defaultMaxBody;
  const url = new URL(request.url);
  const client = url.protocol === "https:" ? https : http;
  const payload = request.json === undefined ? undefined : JSON.stringify(request.json);

  return new Promise((resolve) => {
    let connected = false;
    let settled = false;
    const finish = (answer: ProbeAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(answer);
    };
    const req = client.request(url, {
      method: request.method ?? "GET",
      // A fresh socket per probe: a pooled keep-alive one would hide a refused connection.
      agent: false,
      headers: {
        accept: "application/json",
        ...(payload !== undefined && {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(payload),
        }),
      },
    });
    const timer = setTimeout(
      () => finish(connected ? { kind: "silent" } : { kind: "unreachable" }),
      remaining,
    );
    req.on("socket", (socket) => {
      if (!socket.connecting) connected = true;
      socket.once("connect", () => (connected = true));
    });
    req.on("error", () => finish(connected ? { kind: "silent" } : { kind: "unreachable" }));
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = (truncated: boolean) =>
        finish({
          kind: "answered",
          status: res.statusCode ?? 0,
          contentType: String(res.headers["content-type"] ?? ""),
          body: Buffer.concat(chunks).toString("utf8"),
          truncated,
        });
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBody) {
          done(true);
          return;
        }
        chunks.push(chunk);
      });
      res.on("end", () => done(false));
      // A body cut off mid-way is still an answer: its JSON will not parse.
      res.on("error", () => done(true));
    });
    req.end(payload);
  });
}

/** The answer's body as JSON when it is a 200 with a JSON body, else null. */
export function jsonOf(answer: ProbeAnswer): unknown {
  if (answer.kind !== "answered" || answer.status !== 200 || answer.truncated) return null;
  try {
    return JSON.parse(answer.body) as unknown;
  } catch {
    return null;
  }
}
