/**
 * The host's side of the plugin host process: starts it on first use (and again after it died),
 * opens one worker session per plugin, and routes frames. When the process dies every session
 * ends with the reason and the plugin manager registers each plugin again.
 */
import type { Clock } from "../../clock.js";
import type { CtxCalls, FromPluginHost, WorkerInit } from "./boundary.js";
import type { HandlerTable } from "./endpoint.js";
import {
  builtPluginHostBundle,
  locatePluginHostBundle,
  type PluginHostBundle,
} from "./plugin-host-bundle.js";
import { PluginHostProcess, type PluginHostLaunch, type SpareWorkers } from "./launch/plugin-host-process.js";
import {
  defaultHeartbeat,
  WorkerSession,
  type HeartbeatOptions,
  type SessionEnd,
} from "./host-half/worker-session.js";

export interface PluginRuntimeOptions {
  readPaths: readonly string[];
  writePaths: readonly string[];
  clock: Clock;
  heartbeat?: HeartbeatOptions;
  bundle?: PluginHostBundle;
  launch?: Pick<PluginHostLaunch, "execPath" | "nodeVersion" | "env" | "spawn" | "confinement">;
  onStderr?(line: string): void;
}

export interface OpenRequest {
  pluginId: string;
  heapMb: number;
  init: WorkerInit;
  handlers: HandlerTable<CtxCalls>;
  onEnd(end: SessionEnd): void;
}

export class PluginRuntime {
  private process: Promise<PluginHostProcess> | null = null;
  private readonly sessions = new Map<string, WorkerSession>();
  private closed = false;

  constructor(private readonly options: PluginRuntimeOptions) {}

  /** The plugin host's pid while it runs (tests kill it to prove a restart). */
  async pid(): Promise<number | undefined> {
    return (await this.process?.catch(() => null))?.pid;
  }

  async open(request: OpenRequest): Promise<WorkerSession> {
    if (this.closed) throw new Error("The plugin runtime is closed.");
    const host = await this.ensureProcess();
    this.sessions.get(request.pluginId)?.end("was replaced");
    const session: WorkerSession = new WorkerSession({
      pluginId: request.pluginId,
      clock: this.options.clock,
      heartbeat: this.options.heartbeat ?? defaultHeartbeat,
      send: (frame) => host.send({ kind: "frame", pluginId: request.pluginId, frame }),
      terminate: () => host.send({ kind: "stop", pluginId: request.pluginId }),
      handlers: request.handlers,
      onEnd: (end) => {
        if (this.sessions.get(request.pluginId) === session) this.sessions.delete(request.pluginId);
        request.onEnd(end);
      },
    });
    this.sessions.set(request.pluginId, session);
    host.send({ kind: "start", pluginId: request.pluginId, heapMb: request.heapMb, init: request.init });
    return session;
  }

  /** Stops a plugin's worker on purpose (disable, restart); its session ends with `reason`. */
  stop(pluginId: string, reason: string): void {
    const session = this.sessions.get(pluginId);
    if (!session) return;
    this.sessions.delete(pluginId);
    void this.process?.then(
      (host) => host.send({ kind: "stop", pluginId }),
      () => undefined,
    );
    session.end(reason);
  }

  /**
   * Starts the plugin host now, while the host is still starting, with `spares` workers booting
   * for the plugins about to load (a worker's own start-up is most of a plugin's load).
   */
  warm(spares: SpareWorkers): void {
    if (this.closed || this.process) return;
    void this.ensureProcess(spares).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const id of [...this.sessions.keys()]) this.stop(id, "was shut down");
    const host = await this.process?.catch(() => null);
    host?.kill();
    this.process = null;
  }

  private ensureProcess(spares?: SpareWorkers): Promise<PluginHostProcess> {
    if (this.process) return this.process;
    const launch = (bundle: PluginHostBundle) =>
      PluginHostProcess.start(
        {
          bundle,
          readPaths: this.options.readPaths,
          writePaths: this.options.writePaths,
          ...this.options.launch,
          ...(spares && { spares }),
        },
        {
          onMessage: (message) => this.route(message),
          onExit: (why, cause) => {
            if (this.process === starting) this.process = null;
            for (const session of [...this.sessions.values()]) session.end(why, { hostDied: cause });
            this.sessions.clear();
          },
          ...(this.options.onStderr && { onStderr: this.options.onStderr }),
        },
      );
    // A built bundle is spawned right now (warm() runs inside the host's synchronous start-up).
    const bundle = this.options.bundle ?? builtPluginHostBundle();
    const starting = bundle ? launch(bundle) : locatePluginHostBundle().then(launch);
    this.process = starting;
    starting.catch(() => {
      if (this.process === starting) this.process = null;
    });
    return starting;
  }

  private route(message: FromPluginHost): void {
    const session = message.kind === "ready" ? undefined : this.sessions.get(message.pluginId);
    if (!session) return;
    if (message.kind === "frame") session.receive(message.frame);
    else if (message.kind === "exited") session.end(message.reason, { refused: message.refused === true });
  }
}
