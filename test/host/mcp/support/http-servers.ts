/** HTTP MCP servers for tests: server-everything's Streamable HTTP / SSE modes, and a fault server. */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { everythingBin } from "./mcp-rig.js";

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface RunningServer {
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** server-everything in `streamableHttp` or `sse` mode on `port`, once it listens. */
export async function startEverythingHttp(
  mode: "streamableHttp" | "sse",
  port?: number,
): Promise<RunningServer> {
  const chosen = port ?? (await freePort());
  const child = spawn(process.execPath, [everythingBin(), mode], {
    env: { PATH: process.env["PATH"] ?? "", PORT: String(chosen) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    let seen = "";
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (/listening on port|running on port/i.test(seen)) resolve();
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`server-everything ${mode} exited (${code}): ${seen}`)));
  });
  return {
    port: chosen,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      }),
  };
}

/** Answers every request with one fault: 401, 500, or an HTML page. */
export async function startFaultHttp(): Promise<{
  url: (fault: "401" | "500" | "html") => string;
  close(): Promise<void>;
}> {
  const server: Server = createServer((req, res) => {
    req.resume();
    if (req.url?.startsWith("/401")) {
      res.writeHead(401, { "content-type": "application/json", "www-authenticate": "Bearer" });
      return res.end('{"error":"unauthorized"}');
    }
    if (req.url?.startsWith("/500")) {
      res.writeHead(500, { "content-type": "text/plain" });
      return res.end("database exploded");
    }
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<!doctype html><html><body>Welcome to our website</body></html>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (fault) => `http://127.0.0.1:${port}/${fault}/mcp`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
