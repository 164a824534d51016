/**
 * Runs plugins' idle tasks (docs/contract.md §9.4): a task runs when the app has been idle (no person's input,
 * no running turn) for its `minIdleHours` and `intervalHours` passed since its last run (a `defer`
 * task's first run waits one interval from its first registration). Never two runs of one task at
 * once (a claim file that survives a crash, taken over when its process is gone); each run has a
 * deadline; what happened is kept in the plugin's data; nothing new starts once the host stops.
 * One timer, set for the earliest task that could be due, moved whenever activity changes.
 */
import { pluginFaultAdvice } from "../runtime/plugin-fault-advice.js";
import type { IdleTaskContext } from "../../../../plugins/sdk/types.js";
import type { IdleActivity } from "../../activity-monitor.js";
import type { Clock, TimerHandle } from "../../clock.js";
import type { AgentLog } from "../../logging/agent-log.js";
import { localDayKey } from "../budgets/plugin-budget.js";
import type { IdleClaims } from "./idle-claims.js";
import type { IdleTaskOptions } from "./idle-task-options.js";
import { IdleTaskStatusFile, runsOn, type IdleRunStatus, type IdleTaskRecord } from "./idle-task-status.js";

export interface IdleTaskEntry {
  pluginId: string;
  name: string;
  options: IdleTaskOptions;
  /** Calls `fn` in the plugin's worker; rejects with reason `plugin_timeout` past `deadlineMs`. */
  run(context: IdleTaskContext, deadlineMs: number): Promise<unknown>;
}

export interface IdleTaskView {
  pluginId: string;
  name: string;
  options: IdleTaskOptions;
  running: boolean;
  record: IdleTaskRecord | null;
}

export interface IdleSchedulerOptions {
  home: string;
  clock: Clock;
  activity: IdleActivity;
  claims: IdleClaims;
  log: AgentLog;
  /** How long one run may take (default 10 minutes). */
  deadlineMs?: number;
  /** Told after each run is recorded (tests wait on it). */
  onRecorded?(pluginId: string, name: string, record: IdleTaskRecord): void;
}

export const IDLE_TASK_DEADLINE_MS = 10 * 60_000;
const HOUR = 3_600_000;
/** The timer never sleeps longer than this, so a changed wall clock is noticed. */
const MAX_SLEEP_MS = 15 * 60_000;
/** When another process holds a task's claim, look again after this long. */
const HELD_RETRY_MS = 5 * 60_000;

interface Task {
  entry: IdleTaskEntry;
  status: IdleTaskStatusFile;
  running: boolean;
  /** Not before this time (after a claim held elsewhere). */
  retryAt: number;
}

const key = (pluginId: string, name: string) => `${pluginId}\u0000${name}`;
const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

export class IdleTaskScheduler {
  private readonly tasks = new Map<string, Task>();
  private readonly inFlight = new Set<Promise<void>>();
  private timer: TimerHandle | null = null;
  private stopping = false;
  private readonly unwatch: () => void;
  private readonly deadlineMs: number;

  constructor(private readonly o: IdleSchedulerOptions) {
    this.deadlineMs = o.deadlineMs ?? IDLE_TASK_DEADLINE_MS;
    this.unwatch = o.activity.onChange(() => this.schedule());
  }

  /** Adds a task, or replaces this plugin's task of that name (its history stays). */
  register(entry: IdleTaskEntry): void {
    if (this.stopping) return;
    const id = key(entry.pluginId, entry.name);
    const existing = this.tasks.get(id);
    if (existing) {
      existing.entry = entry; // a run in flight keeps its flag on this same object
    } else {
      const status = new IdleTaskStatusFile(this.o.home, entry.pluginId);
      status.update(entry.name, () => this.freshRecord());
      this.tasks.set(id, { entry, status, running: false, retryAt: 0 });
    }
    this.schedule();
  }

  /** The plugin was disabled or stopped: its tasks leave (a run in flight finishes on its own). */
  removePlugin(pluginId: string): void {
    for (const [id, task] of this.tasks) if (task.entry.pluginId === pluginId) this.tasks.delete(id);
    this.schedule();
  }

  list(pluginId?: string): IdleTaskView[] {
    return [...this.tasks.values()]
      .filter((t) => pluginId === undefined || t.entry.pluginId === pluginId)
      .map((t) => ({
        pluginId: t.entry.pluginId,
        name: t.entry.name,
        options: { ...t.entry.options },
        running: t.running,
        record: t.status.read(t.entry.name),
      }));
  }

  /**
   * Host shutdown: nothing new starts from now on. Runs in flight end when their worker stops
   * (they are recorded as errors); `settled()` waits for that.
   */
  stop(): void {
    this.stopping = true;
    this.unwatch();
    if (this.timer) this.o.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  get isStopping(): boolean {
    return this.stopping;
  }

  /** Resolves when no run is in flight. */
  async settled(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  private freshRecord(): IdleTaskRecord {
    return {
      first_registered: new Date(this.o.clock.now()).toISOString(),
      last_run: null,
      last_status: null,
      last_error: null,
      runs_day: null,
      runs_today: 0,
    };
  }

  /** When the task may run next, given the app idle since `idleSince`. */
  private dueAt(task: Task, record: IdleTaskRecord | null, idleSince: number): number {
    const { intervalHours, minIdleHours, firstRun } = task.entry.options;
    const interval = intervalHours * HOUR;
    const notBefore = record?.last_run
      ? Date.parse(record.last_run) + interval
      : firstRun === "now"
        ? 0
        : Date.parse(record?.first_registered ?? new Date(this.o.clock.now()).toISOString()) + interval;
    return Math.max(notBefore, idleSince + minIdleHours * HOUR, task.retryAt);
  }

  /** Starts what is due, then sleeps until the earliest task could be due. */
  private schedule(): void {
    if (this.timer) this.o.clock.clearTimeout(this.timer);
    this.timer = null;
    if (this.stopping) return;
    const idleSince = this.o.activity.idleSince();
    if (idleSince === null) return; // a turn runs: the change at its end schedules again
    const now = this.o.clock.now();
    let next = Infinity;
    for (const task of this.tasks.values()) {
      if (task.running) continue; // its end schedules again
      let due = this.dueAt(task, task.status.read(task.entry.name), idleSince);
      if (due <= now) {
        this.start(task);
        if (task.running) continue;
        // Held by another process, or run there meanwhile: look again when that says.
        due = this.dueAt(task, task.status.read(task.entry.name), idleSince);
      }
      next = Math.min(next, due);
    }
    if (next === Infinity) return;
    this.timer = this.o.clock.setTimeout(
      () => {
        this.timer = null;
        this.schedule();
      },
      Math.max(1, Math.min(next - now, MAX_SLEEP_MS)),
    );
  }

  private start(task: Task): void {
    try {
      this.tryStart(task);
    } catch (error) {
      // The claim or status file could not be written (a full disk, permissions): try later.
      task.running = false;
      task.retryAt = this.o.clock.now() + HELD_RETRY_MS;
      this.o.log.write("ERROR", "idle_task_failed_to_start", {
        plugin: task.entry.pluginId,
        task: task.entry.name,
        error: describe(error),
      });
    }
  }

  private tryStart(task: Task): void {
    const { pluginId, name } = task.entry;
    const claim = this.o.claims.tryClaim(pluginId, name);
    if (!claim) {
      task.retryAt = this.o.clock.now() + HELD_RETRY_MS;
      this.o.log.write("INFO", "idle_task_held", { plugin: pluginId, task: name });
      return;
    }
    // Read again under the claim: another process may have run it a moment ago.
    const idleSince = this.o.activity.idleSince();
    const before = task.status.read(name);
    if (idleSince === null || this.dueAt(task, before, idleSince) > this.o.clock.now()) {
      claim.release();
      return;
    }
    const startedAt = this.o.clock.now();
    try {
      task.status.update(
        name,
        () => this.freshRecord(),
        (r) => {
          r.last_run = new Date(startedAt).toISOString();
          const day = localDayKey(startedAt);
          r.runs_today = runsOn(r, day) + 1;
          r.runs_day = day;
        },
      );
    } catch (error) {
      claim.release();
      throw error;
    }
    task.running = true;
    const run = this.runOnce(task, before).finally(() => {
      claim.release();
      task.running = false;
      this.inFlight.delete(run);
      this.schedule();
    });
    this.inFlight.add(run);
  }

  private async runOnce(task: Task, before: IdleTaskRecord | null): Promise<void> {
    const { pluginId, name } = task.entry;
    // No side-question token: an idle task is not a turn (docs/contract.md §9.4).
    const context: IdleTaskContext = {
      task: name,
      lastRun: before?.last_run ?? null,
      lastStatus: before?.last_status ?? null,
      sideQuestionToken: null,
    };
    let status: IdleRunStatus;
    let error: string | null = null;
    try {
      await this.withDeadline(task.entry.run(context, this.deadlineMs));
      status = "ok";
    } catch (failure) {
      const reason = (failure as { reason?: unknown }).reason;
      status = reason === "plugin_timeout" ? "timeout" : "error";
      error = `${describe(failure)} ${pluginFaultAdvice(pluginId)}`;
    }
    const record = task.status.update(
      name,
      () => this.freshRecord(),
      (r) => {
        r.last_status = status;
        r.last_error = error;
      },
    );
    this.o.log.write(status === "ok" ? "INFO" : "WARN", "idle_task_run", {
      plugin: pluginId,
      task: name,
      status,
      ...(error !== null ? { error } : {}),
    });
    this.o.onRecorded?.(pluginId, name, record);
  }

  /** The scheduler's own deadline on its clock, whatever the call's transport does. */
  private withDeadline(call: Promise<unknown>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = this.o.clock.setTimeout(() => {
        const error = new Error(
          `The idle task did not finish within ${Math.round(this.deadlineMs / 1000)} s.`,
        );
        reject(Object.assign(error, { reason: "plugin_timeout" }));
      }, this.deadlineMs);
      call.then(
        (value) => {
          this.o.clock.clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          this.o.clock.clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }
}
