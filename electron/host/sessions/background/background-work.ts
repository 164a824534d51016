/**
 * The background work each session runs after a turn (docs/contract.md §7.4, §9.3): plugin forks and the
 * app's own background review. A person's next turn cancels all of it; an injected turn first
 * waits (bounded) for it to finish. Jobs register themselves with a cancel function and a promise
 * that settles when they are really over, so "cancelled" means "stopped", not "asked to stop".
 */
import { randomUUID } from "node:crypto";
import type { Clock } from "../../clock.js";

export type BackgroundWorkKind = "fork" | "background_review";

export interface BackgroundJobSpec {
  sessionId: string;
  kind: BackgroundWorkKind;
  /** The plugin that started a fork; null for the app's own review. */
  pluginId: string | null;
  /** Asks the job to stop; `reason` says why (it reaches the job's outcome and the log). */
  cancel(reason: string): void;
  /** Settles when the job has ended, however it ended. */
  settled: Promise<unknown>;
}

/** A running job as diagnostics show it. */
export interface BackgroundJobView {
  id: string;
  sessionId: string;
  kind: BackgroundWorkKind;
  pluginId: string | null;
  startedAt: number;
}

interface Job extends BackgroundJobView {
  cancel(reason: string): void;
  settled: Promise<void>;
}

/** Why `waitIdle` returned: everything finished, the time ran out, or the caller gave up. */
export type WaitIdleOutcome = "idle" | "timeout" | "aborted";

export class BackgroundWork {
  private readonly jobs = new Map<string, Map<string, Job>>();

  constructor(private readonly clock: Clock) {}

  /** Registers a running job; returns its id. It leaves the registry by itself once settled. */
  register(spec: BackgroundJobSpec): string {
    const id = randomUUID();
    const settled = spec.settled.then(
      () => undefined,
      () => undefined,
    );
    const job: Job = {
      id,
      sessionId: spec.sessionId,
      kind: spec.kind,
      pluginId: spec.pluginId,
      startedAt: this.clock.now(),
      cancel: spec.cancel,
      settled,
    };
    let session = this.jobs.get(spec.sessionId);
    if (!session) this.jobs.set(spec.sessionId, (session = new Map()));
    session.set(id, job);
    void settled.then(() => this.remove(spec.sessionId, id));
    return id;
  }

  /** Asks every job of the session to stop; resolves when all of them have ended. */
  async cancelAll(sessionId: string, reason: string): Promise<number> {
    const running = [...(this.jobs.get(sessionId)?.values() ?? [])];
    for (const job of running) {
      try {
        job.cancel(reason);
      } catch {
        // A job whose cancel throws still ends through its own promise.
      }
    }
    await Promise.all(running.map((job) => job.settled));
    return running.length;
  }

  /**
   * Waits until the session has no background work, at most `timeoutMs`, or until `signal`
   * aborts (a person's message ends an injected turn's wait at once, docs/contract.md §9.3). Work registered
   * while waiting is waited for too.
   */
  waitIdle(sessionId: string, timeoutMs: number, signal?: AbortSignal): Promise<WaitIdleOutcome> {
    if (signal?.aborted) return Promise.resolve("aborted");
    return new Promise<WaitIdleOutcome>((resolve) => {
      let finished = false;
      const finish = (outcome: WaitIdleOutcome) => {
        if (finished) return;
        finished = true;
        this.clock.clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        resolve(outcome);
      };
      const onAbort = () => finish("aborted");
      const timer = this.clock.setTimeout(() => finish("timeout"), Math.max(0, timeoutMs));
      signal?.addEventListener("abort", onAbort, { once: true });
      const check = (): void => {
        if (finished) return;
        const running = [...(this.jobs.get(sessionId)?.values() ?? [])];
        if (running.length === 0) return finish("idle");
        void Promise.all(running.map((job) => job.settled)).then(check);
      };
      check();
    });
  }

  /** The running jobs of one session, or of all sessions, oldest first. */
  list(sessionId?: string): BackgroundJobView[] {
    const sessions = sessionId === undefined ? [...this.jobs.values()] : [this.jobs.get(sessionId)];
    return sessions
      .flatMap((jobs) => [...(jobs?.values() ?? [])])
      .map(({ id, sessionId: sid, kind, pluginId, startedAt }) => ({
        id,
        sessionId: sid,
        kind,
        pluginId,
        startedAt,
      }))
      .sort((a, b) => a.startedAt - b.startedAt);
  }

  /** Whether the session runs any background work now. */
  isBusy(sessionId: string): boolean {
    return (this.jobs.get(sessionId)?.size ?? 0) > 0;
  }

  private remove(sessionId: string, id: string): void {
    const session = this.jobs.get(sessionId);
    session?.delete(id);
    if (session && session.size === 0) this.jobs.delete(sessionId);
  }
}
