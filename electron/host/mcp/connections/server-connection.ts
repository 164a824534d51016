/**
 * One MCP server's connection (docs/contract.md §13.2): starts it over stdio, Streamable HTTP or
 * SSE with the SDK's Client, keeps its status and lists, restarts it with backoff (1 s doubling to
 * 60 s) after an exit or a failed start, and re-establishes an HTTP session the server forgot.
 */
import type { ChildProcess } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport, SseError as SSEError } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  type ClientCapabilities,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import type { McpStatus } from "../../rpc/methods/mcp.js";
import { findCommand } from "./command-lookup.js";
import { describeConnectError } from "./connect-errors.js";
import type { McpServerConfig } from "../server-config.js";
import { stdioEnvironment } from "./server-env.js";
import type { ServerLog } from "./server-log.js";
import type { ServerRequestHandlers } from "./server-requests.js";

export const CLIENT_INFO = { name: "hermes-desktop", version: "0.1.0" } as const;
const BACKOFF_START_MS = 1000;
const BACKOFF_MAX_MS = 60_000;

export interface ConnectionDeps {
  config: McpServerConfig;
  log: ServerLog;
  /** The login-shell PATH (shell-path.ts). */
  pathValue: () => Promise<string>;
  /** `secret_env` / `secret_headers` values from the keychain, read at each start. */
  secrets: (kind: "env" | "header", names: readonly string[]) => Promise<Record<string, string>>;
  handlers: ServerRequestHandlers;
  /**
   * `auth: oauth`: the provider sending the stored tokens (null when there are none), and the
   * word that the server wants a sign-in — after which the connection waits for one rather than
   * retrying.
   */
  oauth?: {
    provider: (config: McpServerConfig) => Promise<OAuthClientProvider | null>;
    signInNeeded: (id: string) => void;
  };
  onChange: (what: "status" | "lists") => void;
  /** Backoff delays, shorter in tests. */
  backoffStartMs?: number;
}

export interface ServerLists {
  tools: Tool[];
  resources: number;
  prompts: number;
}

export class ServerConnection {
  /** "disabled" until started: the first start announces `starting`. */
  status: McpStatus = "disabled";
  error: string | undefined;
  client: Client | null = null;
  lists: ServerLists = { tools: [], resources: 0, prompts: 0 };
  restarts = 0;
  private transport: Transport | null = null;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Bumped at each (re)start: callbacks of an older connection are ignored. */
  private generation = 0;
  private starting: Promise<void> | null = null;

  constructor(readonly deps: ConnectionDeps) {}

  get config(): McpServerConfig {
    return this.deps.config;
  }

  /** Starts (or restarts now) and settles when the server is ready or failed; never throws. */
  start(): Promise<void> {
    this.stopped = false;
    this.clearRetry();
    const generation = ++this.generation;
    const run = this.connect(generation).finally(() => {
      if (this.starting === run) this.starting = null;
    });
    this.starting = run;
    return run;
  }

  /** Waits for a start in progress; starts now when the server is in error (a call wants it). */
  async ready(): Promise<Client> {
    if (this.status !== "ready" && !this.starting && !this.stopped) await this.start();
    else if (this.starting) await this.starting;
    if (this.status !== "ready" || !this.client) {
      throw new Error(`MCP server '${this.config.id}' is not ready: ${this.error ?? this.status}`);
    }
    return this.client;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.generation++;
    this.clearRetry();
    await this.closeTransport();
    this.setStatus("disabled");
  }

  /** A call found the HTTP session gone (the server restarted): a fresh session, at once. */
  async renewSession(): Promise<Client> {
    this.deps.log.note("the server no longer knows this session; starting a new one");
    await this.start();
    return this.ready();
  }

  private async connect(generation: number): Promise<void> {
    const { config, log } = this.deps;
    await this.closeTransport();
    if (generation !== this.generation) return;
    this.setStatus("starting", undefined);
    log.resetTail();
    let transport: Transport;
    try {
      transport = await this.createTransport();
    } catch (error) {
      return this.failed(generation, error instanceof Error ? error.message : String(error));
    }
    const client = new Client(CLIENT_INFO, {
      capabilities: this.capabilities(),
      listChanged: {
        tools: { onChanged: () => void this.refreshLists(generation) },
        resources: { onChanged: () => void this.refreshLists(generation) },
        prompts: { onChanged: () => void this.refreshLists(generation) },
      },
    });
    this.installHandlers(client);
    this.transport = transport;
    let exited: string | null = null;
    transport.onclose = () => {
      if (generation !== this.generation) return;
      exited = this.exitDescriptionIfGone(transport);
      if (this.status === "ready") {
        const why = exited ?? "the server closed the connection";
        log.note(`connection closed: ${why}`);
        this.failed(generation, why);
      }
    };
    transport.onerror = (error) => {
      if (generation === this.generation) log.note(`transport error: ${error.message}`);
    };
    const timeoutMs = config.connectTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    try {
      log.note(`starting (${config.transport})`);
      await Promise.race([
        client.connect(transport, { timeout: timeoutMs }),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`timed out after ${Math.round(timeoutMs / 1000)} s connecting`)),
            timeoutMs,
          );
        }),
      ]);
      if (generation !== this.generation) return void (await client.close().catch(() => undefined));
      this.client = client;
      this.lists = await this.fetchLists(client);
      if (generation !== this.generation) return;
      this.attempt = 0;
      log.note(`ready: ${this.lists.tools.length} tools`);
      this.setStatus("ready", undefined);
    } catch (error) {
      if (generation !== this.generation) return;
      // An exit during initialize says more than the SDK's "Connection closed".
      const message = exited ?? this.exitDescriptionIfGone(transport) ?? describeConnectError(error, config);
      if (config.oauth && isAuthRequired(error)) return this.needsSignIn(generation, message);
      this.failed(generation, message);
    } finally {
      clearTimeout(timer);
    }
  }

  private capabilities(): ClientCapabilities {
    const { config } = this.deps;
    return {
      roots: { listChanged: true },
      ...(config.sampling.enabled ? { sampling: {} } : {}),
      ...(config.elicitation.enabled ? { elicitation: { form: {}, url: {} } } : {}),
    };
  }

  private installHandlers(client: Client): void {
    const { handlers, config } = this.deps;
    client.setRequestHandler(ListRootsRequestSchema, () => handlers.roots(config));
    if (config.sampling.enabled)
      client.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
        handlers.sampling(config, request.params, extra.signal),
      );
    if (config.elicitation.enabled)
      client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
        handlers.elicitation(config, request.params, extra.signal),
      );
  }

  private async createTransport(): Promise<Transport> {
    const { config, log } = this.deps;
    if (config.transport === "stdio") {
      const pathValue = await this.deps.pathValue();
      const command = findCommand(config.command ?? "", pathValue);
      const secrets = await this.deps.secrets("env", config.secretEnv);
      const transport = new StdioClientTransport({
        command,
        args: config.args,
        env: stdioEnvironment({ pathValue, env: config.env, secrets }),
        stderr: "pipe",
      });
      transport.stderr?.on("data", (chunk: Buffer) => log.stderr(chunk.toString("utf8")));
      // The SDK forgets its child at exit; keep it for the exit code an error names.
      const start = transport.start.bind(transport);
      transport.start = async () => {
        await start();
        const child = (transport as unknown as { _process?: ChildProcess })._process;
        if (child) lastChild.set(transport, child);
      };
      return transport;
    }
    const url = new URL(config.url ?? "");
    const secretHeaders = await this.deps.secrets("header", config.secretHeaders);
    const requestInit = { headers: { ...config.headers, ...secretHeaders } };
    const authProvider = (config.oauth && (await this.deps.oauth?.provider(config))) || undefined;
    return config.transport === "sse"
      ? new SSEClientTransport(url, {
          requestInit,
          eventSourceInit: { fetch: withHeaders(requestInit.headers) },
          ...(authProvider ? { authProvider } : {}),
        })
      : new StreamableHTTPClientTransport(url, { requestInit, ...(authProvider ? { authProvider } : {}) });
  }

  async refreshLists(generation = this.generation): Promise<void> {
    const client = this.client;
    if (!client || generation !== this.generation) return;
    try {
      const lists = await this.fetchLists(client);
      if (generation !== this.generation) return;
      this.lists = lists;
      this.deps.onChange("lists");
    } catch (error) {
      this.deps.log.note(
        `re-reading the lists failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  private async fetchLists(client: Client): Promise<ServerLists> {
    const capabilities = client.getServerCapabilities() ?? {};
    const tools: Tool[] = [];
    if (capabilities.tools) {
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {});
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor);
    }
    const count = async (list: () => Promise<unknown[]>) => {
      try {
        return (await list()).length;
      } catch {
        return 0;
      }
    };
    const resources = capabilities.resources
      ? await count(async () => (await client.listResources()).resources)
      : 0;
    const prompts = capabilities.prompts ? await count(async () => (await client.listPrompts()).prompts) : 0;
    return { tools, resources, prompts };
  }

  /**
   * The server wants a sign-in (`auth: oauth`): `error` with "…: sign in", and no retries — the
   * same answer would come back; signing in restarts the server.
   */
  needsSignIn(generation: number, message: string): void {
    if (generation !== this.generation || this.stopped) return;
    this.deps.log.note(`error: ${message}`);
    this.clearRetry();
    this.client = null;
    this.setStatus("error", message);
    void this.closeTransport();
    this.deps.oauth?.signInNeeded(this.config.id);
  }

  /** A call found the tokens refused for good (the refresh too): as at connect. */
  authLost(): void {
    this.needsSignIn(this.generation, describeConnectError(new UnauthorizedError(), this.config));
  }

  private failed(generation: number, message: string): void {
    if (generation !== this.generation || this.stopped) return;
    this.deps.log.note(`error: ${message}`);
    this.client = null;
    // The lists stay: a call to a known tool restarts the server at once rather than failing.
    this.setStatus("error", message);
    void this.closeTransport();
    const delay = Math.min(
      (this.deps.backoffStartMs ?? BACKOFF_START_MS) * 2 ** this.attempt,
      BACKOFF_MAX_MS,
    );
    this.attempt++;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.stopped || generation !== this.generation) return;
      this.restarts++;
      void this.start();
    }, delay);
    this.retryTimer.unref?.();
  }

  /** "exited with code 3: <stderr tail>" once a stdio child has exited, else null. */
  private exitDescriptionIfGone(transport: Transport): string | null {
    const child = processOf(transport);
    if (!child || (child.exitCode === null && child.signalCode === null)) return null;
    const how = child.exitCode !== null ? `code ${child.exitCode}` : `signal ${child.signalCode}`;
    const tail = this.deps.log.tail();
    return `the server exited with ${how}${tail ? `; its last output: ${tail}` : ""}`;
  }

  private async closeTransport(): Promise<void> {
    const transport = this.transport;
    const client = this.client;
    this.transport = null;
    this.client = null;
    if (client) await client.close().catch(() => undefined);
    else if (transport) await transport.close().catch(() => undefined);
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private setStatus(status: McpStatus, error?: string): void {
    const changed = this.status !== status || this.error !== error;
    this.status = status;
    this.error = error;
    if (changed) this.deps.onChange("status");
  }
}

/** The server refused to serve without (valid) credentials. */
export function isAuthRequired(error: unknown): boolean {
  if (error instanceof UnauthorizedError) return true;
  return (error instanceof StreamableHTTPError || error instanceof SSEError) && error.code === 401;
}

/** The stdio transport's child (the SDK keeps it private; read for its exit code only). */
function processOf(transport: Transport): ChildProcess | null {
  if (!(transport instanceof StdioClientTransport)) return null;
  return lastChild.get(transport) ?? null;
}

const lastChild = new WeakMap<Transport, ChildProcess>();

/**
 * The SSE stream's GET carries the same headers as the POSTs. The transport hands a `Headers`
 * (with the bearer token and Accept), whose entries a spread would drop: merged entry by entry.
 */
function withHeaders(headers: Record<string, string>): typeof fetch {
  return (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) if (!merged.has(name)) merged.set(name, value);
    return fetch(input, { ...init, headers: merged });
  };
}
