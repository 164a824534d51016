import { execFileSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { httpFetch } from "../../../electron/host/llm/http-fetch.js";
import { whenSent } from "../../../electron/host/llm/request-sent.js";

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A real HTTP server on loopback; counts the connections it was opened. */
async function serve(handler: Handler): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => handler(req, res, body));
  });
  server.on("connection", () => (connections += 1));
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, connections: () => connections };
}

async function readAll(response: Response): Promise<string> {
  return new TextDecoder().decode(new Uint8Array(await response.arrayBuffer()));
}

describe("httpFetch (the providers' transport)", () => {
  it("sends the method, headers and body, and answers with status, headers and body", async () => {
    const seen: { method?: string; auth?: string; type?: string; body?: string } = {};
    const { url } = await serve((req, res, body) => {
      Object.assign(seen, {
        method: req.method,
        auth: req.headers.authorization,
        type: req.headers["content-type"],
        body,
      });
      res.writeHead(201, "Made", { "content-type": "application/json", "x-request-id": "req-1" });
      res.end(JSON.stringify({ ok: true }));
    });
    const response = await httpFetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: new Headers({ Authorization: "Bearer test-token", "Content-Type": "application/json" }),
      body: JSON.stringify({ hello: "world" }),
    });
    expect(seen).toEqual({
      method: "POST",
      auth: "Bearer test-token",
      type: "application/json",
      body: '{"hello":"world"}',
    });
    expect(response.status).toBe(201);
    expect(response.statusText).toBe("Made");
    expect(response.ok).toBe(true);
    expect(response.headers.get("x-request-id")).toBe("req-1");
    expect(await response.json()).toEqual({ ok: true });
  });

  it("hands over the body as it arrives, before the server has finished", async () => {
    let finish: () => void = () => undefined;
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: first\n\n");
      finish = () => res.end("data: second\n\n");
    });
    const response = await httpFetch(url, { method: "POST", body: "{}" });
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("data: first\n\n");
    finish();
    let rest = "";
    for (let part = await reader.read(); !part.done; part = await reader.read())
      rest += new TextDecoder().decode(part.value);
    expect(rest).toBe("data: second\n\n");
  });

  it("keeps the connection for the next request", async () => {
    const { url, connections } = await serve((_req, res) => res.end("pong"));
    for (let i = 0; i < 3; i++) expect(await readAll(await httpFetch(url))).toBe("pong");
    expect(connections()).toBe(1);
  });

  it("sends again, once, on a new socket when the kept-alive one was closed by the server as it was reused", async () => {
    // The server answers a connection's first request and resets the connection at its second:
    // what a server closing an idle socket at the moment the client reuses it looks like.
    const seen = new WeakMap<object, number>();
    const bodies: string[] = [];
    const { url, connections } = await serve((req, res, body) => {
      const count = (seen.get(req.socket) ?? 0) + 1;
      seen.set(req.socket, count);
      if (count > 1) return void req.socket.destroy();
      bodies.push(body);
      res.end(`pong ${body}`);
    });
    expect(await readAll(await httpFetch(url, { method: "POST", body: "one" }))).toBe("pong one");
    expect(await readAll(await httpFetch(url, { method: "POST", body: "two" }))).toBe("pong two");
    expect(connections()).toBe(2);
    expect(bodies).toEqual(["one", "two"]);
  });

  it("does not send again after a reset on a fresh socket (a real failure)", async () => {
    let requests = 0;
    const { url } = await serve((req) => {
      requests += 1;
      req.socket.destroy();
    });
    const error = await httpFetch(url, { method: "POST", body: "x" }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(((error as TypeError).cause as { code?: string }).code).toBe("ECONNRESET");
    expect(requests).toBe(1);
  });

  it("decompresses a compressed answer", async () => {
    const text = "a reply ".repeat(500);
    const { url } = await serve((req, res) => {
      expect(req.headers["accept-encoding"]).toContain("gzip");
      res.writeHead(200, { "content-encoding": "gzip" });
      res.end(zlib.gzipSync(text));
    });
    expect(await readAll(await httpFetch(url))).toBe(text);
  });

  it("gives a bodiless answer no body", async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const response = await httpFetch(url, { method: "DELETE" });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });

  it("follows a redirect as fetch does", async () => {
    const target = await serve((req, res, body) => res.end(`${req.method} ${body}`));
    const { url } = await serve((_req, res) => {
      res.writeHead(307, { location: `${target.url}/moved` });
      res.end();
    });
    expect(await readAll(await httpFetch(url, { method: "POST", body: "kept" }))).toBe("POST kept");
  });

  it("hands a body that is not text or bytes to the global fetch", async () => {
    const { url } = await serve((req, res, body) => res.end(`${req.headers["content-type"]} ${body}`));
    const response = await httpFetch(url, { method: "POST", body: new URLSearchParams({ a: "1" }) });
    expect(await readAll(response)).toBe("application/x-www-form-urlencoded;charset=UTF-8 a=1");
  });

  it("fails the request, and nothing else, on an answer fetch cannot represent", async () => {
    const { url } = await serve((req, res) => {
      // A status outside 200–599, written by hand (Node's server refuses to send one).
      req.socket.end("HTTP/1.1 999 Odd\r\nContent-Length: 2\r\n\r\nno");
      res.detachSocket(req.socket);
    });
    const failure = await httpFetch(url).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).message).toBe("fetch failed");
    const healthy = await serve((_req, res) => res.end("still fine"));
    expect(await readAll(await httpFetch(healthy.url))).toBe("still fine");
  });

  it("rejects a refused connection as fetch does: a TypeError whose cause has the code", async () => {
    const { url } = await serve(() => undefined);
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const failure = await httpFetch(url).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).message).toBe("fetch failed");
    expect(((failure as TypeError).cause as NodeJS.ErrnoException).code).toBe("ECONNREFUSED");
  });

  it("errors the body as fetch does when the server drops the connection mid-answer", async () => {
    const { url } = await serve((req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: partial\n\n");
      setTimeout(() => req.socket.destroy(), 20);
    });
    const response = await httpFetch(url);
    const failure = await readAll(response).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).message).toBe("terminated");
  });

  it("rejects with an AbortError when aborted before the answer, and errors the body when aborted during it", async () => {
    const { url } = await serve((req, res) => {
      if (req.url === "/slow") return; // never answers
      res.writeHead(200);
      res.write("data: some\n\n");
    });
    const early = new AbortController();
    const pending = httpFetch(`${url}/slow`, { signal: early.signal });
    setTimeout(() => early.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });

    const late = new AbortController();
    const response = await httpFetch(url, { signal: late.signal });
    const reader = response.body!.getReader();
    await reader.read();
    late.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: "AbortError" });

    const already = new AbortController();
    already.abort();
    await expect(httpFetch(url, { signal: already.signal })).rejects.toMatchObject({ name: "AbortError" });
  });

  it("tells a caller waiting on the URL once the request has gone out, before any answer", async () => {
    let answer: () => void = () => undefined;
    let received: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (received = resolve));
    const { url } = await serve((_req, res) => {
      answer = () => res.end("late");
      received();
    });
    const waiting = whenSent(`${url}/v1/chat/completions`);
    // Nobody requests this one: it resolves only when the wait for a send runs out.
    const timedOut = whenSent(`${url}/never`);
    const response = httpFetch(`${url}/v1/chat/completions`, { method: "POST", body: "{}" });
    const first = await Promise.race([
      waiting.sent.then(() => "sent"),
      timedOut.sent.then(() => "gave up waiting"),
    ]);
    expect(first).toBe("sent");
    await arrived;
    answer();
    expect(await readAll(await response)).toBe("late");
  });

  it("carries the openai SDK: a streamed chat, and a stop mid-stream that ends it quietly", async () => {
    const chunk = (content: string) =>
      `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
    const { url } = await serve((req, res, body) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(chunk("Hello"));
      if (JSON.parse(body).messages[0].content === "stop me") return; // keeps streaming forever
      res.end(chunk(" world") + "data: [DONE]\n\n");
    });
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: "test-key", maxRetries: 0, fetch: httpFetch });
    const whole = await client.chat.completions.create({
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    let text = "";
    for await (const part of whole) text += part.choices[0]?.delta?.content ?? "";
    expect(text).toBe("Hello world");

    const stop = new AbortController();
    const cut = await client.chat.completions.create(
      { model: "m", messages: [{ role: "user", content: "stop me" }], stream: true },
      { signal: stop.signal },
    );
    const shown: string[] = [];
    for await (const part of cut) {
      shown.push(part.choices[0]?.delta?.content ?? "");
      stop.abort();
    }
    expect(shown).toEqual(["Hello"]);
  });

  it("speaks TLS to an https endpoint and refuses a certificate nobody vouches for", async () => {
    // A throwaway self-signed certificate, made here (never stored): the system's authorities
    // don't know it, so the transport must refuse it as fetch does.
    const dir = mkdtempSync(join(tmpdir(), "hermes-tls-"));
    try {
      execFileSync(
        "openssl",
        [
          ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"],
          ...["-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
          ...["-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")],
        ],
        { stdio: "ignore" },
      );
      let requests = 0;
      const server = https.createServer(
        { key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) },
        (_req, res) => {
          requests += 1;
          res.end("should not be read");
        },
      );
      server.listen(0, "127.0.0.1");
      await once(server, "listening");
      const { port } = server.address() as AddressInfo;
      try {
        const failure = await httpFetch(`https://127.0.0.1:${port}/v1/models`).then(
          () => null,
          (error: unknown) => error,
        );
        expect(failure).toBeInstanceOf(TypeError);
        expect((failure as TypeError).message).toBe("fetch failed");
        expect(((failure as TypeError).cause as NodeJS.ErrnoException).code).toBe(
          "DEPTH_ZERO_SELF_SIGNED_CERT",
        );
        expect(requests).toBe(0);
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
