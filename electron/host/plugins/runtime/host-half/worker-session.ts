/**
 * The host's handle on one plugin's worker: calls into it with deadlines (docs/contract.md §5.4), its
 * heartbeat, its memory, and how it ended. Once ended, every pending and later call fails with
 * `plugin_unresponsive`, and nothing the old worker sends is accepted any more.
 */
import { pluginFaultAdvice } from "../plugin-fault-advice.js";
import type { Clock, TimerHandle } from "../../../clock.js";
import type { CtxCalls, Frame, Mirror, PluginCalls } from "../boundary.js";
import { Endpoint, type HandlerTable } from "../endpoint.js";
import { PluginTimeoutError, PluginUnresponsiveError } from "../errors.js";
import type { PluginHostExit } from "../launch/plugin-host-process.js";

export interface HeartbeatOptions {
  /** How often the worker is pinged. */
  intervalMs: number;
  /** A worker that has not answered for this long is not responding (a synchronous loop). */
  timeoutMs: number;
}

export const defaultHeartbeat: HeartbeatOptions = { intervalMs: 1_000, timeoutMs: 5_000 };

export interface SessionEnd {
  reason: string;
  /** Calls into the plugin (not heartbeats) were pending when it ended. */
  hadPendingCalls: boolean;
  /** It ended because it stopped answering heartbeats. */
  unresponsive: boolean;
  /**
   * The whole plugin host died (maybe another plugin's doing), or null. `channel_tampered`: its
   * channel to the app was used by some plugin's code, which one cannot be told, so it counts
   * against every plugin it ran.
   */
  hostDied: PluginHostExit | null;
  /** Its worker refused to run unconfined (worker-confinement.ts): a restart would refuse again. */
  refused: boolean;
}

export interface WorkerSessionOptions {
  pluginId: string;
  clock: Clock;
  heartbeat: HeartbeatOptions;
  send(frame: Frame): void;
  /** Asks the plugin host to terminate the worker. */
  terminate(): void;
  handlers: HandlerTable<CtxCalls>;
  onEnd(end: SessionEnd): void;
}

export class WorkerSession {
  readonly endpoint: Endpoint<PluginCalls, CtxCalls>;
  memoryMb: number | null = null;
  private ended: SessionEnd | null = null;
  private heartbeatTimer: TimerHandle | null = null;
  private lastAnswer = 0;
  private calls = 0;

  constructor(private readonly options: WorkerSessionOptions) {
    const { clock } = options;
    this.endpoint = new Endpoint<PluginCalls, CtxCalls>((frame) => options.send(frame), options.handlers, {
      setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
      clearTimeout: (h) => clock.clearTimeout(h as TimerHandle),
    });
  }

  get isEnded(): boolean {
    return this.ended !== null;
  }

  receive(frame: Frame): void {
    if (!this.ended) this.endpoint.receive(frame);
  }

  mirror(update: Partial<Mirror>): void {
    if (!this.ended) this.options.send({ kind: "mirror", mirror: update });
  }

  private booted: (() => void) | null = null;
  private readonly boot = new Promise<void>((resolve) => {
    this.booted = resolve;
  });

  /** Called when the worker says it booted. */
  markReady(): void {
    this.booted?.();
  }

  /** Resolves once the worker booted; rejects when it ended first or did not boot in time. */
  ready(deadlineMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = this.options.clock.setTimeout(() => {
        reject(
          new PluginUnresponsiveError(
            `Plugin '${this.options.pluginId}' did not start within ${Math.round(deadlineMs / 1000)} s.`,
          ),
        );
      }, deadlineMs);
      const settle = (fn: () => void) => {
        this.options.clock.clearTimeout(timer);
        fn();
      };
      void this.boot.then(() => settle(resolve));
      this.whenEnded = (error) => settle(() => reject(error));
    });
  }

  private whenEnded: ((error: Error) => void) | null = null;

  register(file: string, main: string, deadlineMs: number): Promise<void> {
    return this.tracked(
      this.endpoint.call(
        "register",
        { file, main },
        {
          deadlineMs,
          onDeadline: () =>
            new PluginTimeoutError(
              `register() did not finish within ${Math.round(deadlineMs / 1000)} s; make it return sooner (start slow work in the background).`,
            ),
        },
      ),
    ).then(() => undefined);
  }

  /** Runs a handler the plugin registered; `what` names it in the timeout's message. */
  invoke(handlerId: string, args: unknown[], deadlineMs: number, what: string): Promise<unknown> {
    return this.tracked(
      this.endpoint.call(
        "invoke",
        { handlerId, args },
        {
          deadlineMs,
          onDeadline: () =>
            new PluginTimeoutError(
              `${what} (plugin '${this.options.pluginId}') did not answer within ${Math.round(deadlineMs / 1000)} s. ${pluginFaultAdvice(this.options.pluginId)}`,
            ),
        },
      ),
    );
  }

  startHeartbeat(): void {
    this.lastAnswer = this.options.clock.now();
    let due = this.lastAnswer;
    const beat = () => {
      if (this.ended) return;
      const now = this.options.clock.now();
      // Our own timer ran late: the host was busy, and answers may wait unread. Not the worker's fault.
      if (now - due > this.options.heartbeat.intervalMs)
        this.lastAnswer = Math.max(this.lastAnswer, now - this.options.heartbeat.intervalMs);
      due = now + this.options.heartbeat.intervalMs;
      const silentFor = now - this.lastAnswer;
      if (silentFor >= this.options.heartbeat.timeoutMs) {
        this.end(`stopped answering for ${Math.round(silentFor / 1000)} s (not responding)`, {
          unresponsive: true,
        });
        this.options.terminate();
        return;
      }
      this.endpoint
        .call("ping", {})
        .then(({ heapUsedMb }) => {
          this.lastAnswer = this.options.clock.now();
          this.memoryMb = Math.round(heapUsedMb * 10) / 10;
        })
        .catch(() => undefined);
      this.heartbeatTimer = this.options.clock.setTimeout(beat, this.options.heartbeat.intervalMs);
    };
    beat();
  }

  /** Ends the session: pending calls fail with `plugin_unresponsive`, the owner is told once. */
  end(
    reason: string,
    how: { unresponsive?: boolean; hostDied?: PluginHostExit; refused?: boolean } = {},
  ): void {
    if (this.ended) return;
    this.ended = {
      reason,
      hadPendingCalls: this.calls > 0,
      unresponsive: how.unresponsive === true,
      hostDied: how.hostDied ?? null,
      refused: how.refused === true,
    };
    if (this.heartbeatTimer) this.options.clock.clearTimeout(this.heartbeatTimer);
    const error = new PluginUnresponsiveError(
      `Plugin '${this.options.pluginId}' ${reason} before answering.`,
    );
    this.endpoint.close(error);
    this.whenEnded?.(error);
    this.options.onEnd(this.ended);
  }

  private tracked<T>(call: Promise<T>): Promise<T> {
    this.calls += 1;
    return call.finally(() => {
      this.calls -= 1;
    });
  }
}
