/**
 * Idle tasks (docs/contract.md §9.4) with real plugin workers and an injected clock for the scheduler: idle
 * detection, intervals, `defer`/`now`, one run at a time, errors and deadlines recorded, no new run
 * once stopping, claims taken over after a crash, state kept across restarts, tasks leaving with
 * their plugin, and every bad argument refused with a message that says what to fix.
 */
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ActivityMonitor } from "../../../electron/host/activity-monitor.js";
import { ManualClock } from "../../fixtures/manual-clock.js";
import { claimsDir, IdleClaims } from "../../../electron/host/plugins/idle/idle-claims.js";
import { IdleTaskScheduler } from "../../../electron/host/plugins/idle/idle-scheduler.js";
import { parseIdleTaskOptions } from "../../../electron/host/plugins/idle/idle-task-options.js";
import { IdleTaskStatusFile } from "../../../electron/host/plugins/idle/idle-task-status.js";
import { idleTaskViews } from "../../../electron/host/plugins/idle/idle-task-views.js";
import type { PluginManager } from "../../../electron/host/plugins/manager/plugin-manager.js";
import { waitFor } from "../support/temp-home.js";
import { startRig, writePlugin, type Rig } from "./plugin-rig.js";

const HOUR = 3_600_000;
const MINUTE = 60_000;
/** A minute of idle time (0 would run a `now` task the moment it registers). */
const MIN_IDLE = 1 / 60;

let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => rig.dispose());

interface TaskSetup {
  name: string;
  behaviour: "ok" | "throw" | "hang" | "gate";
  options: Record<string, unknown>;
}

/** A plugin that registers the given idle tasks and a command to add more, read its runs, open gates. */
const idlePlugin = (tasks: TaskSetup[]) => `
const gates = new Map();
const runs = [];
const behaviours = {
  ok: async () => "a value that is not needed",
  throw: async () => { throw new Error("prune failed: disk full"); },
  hang: () => new Promise(() => {}),
  gate: (c) => new Promise((resolve) => gates.set(c.task, resolve)),
};
export function register(ctx) {
  const add = (name, behaviour, options) =>
    ctx.registerIdleTask(name, async (c) => {
      runs.push({ ...c, keys: Object.keys(c).sort() });
      return behaviours[behaviour](c);
    }, options);
  for (const t of ${JSON.stringify(tasks)}) add(t.name, t.behaviour, t.options);
  ctx.registerCommand({
    name: "idle-" + ctx.pluginId,
    handler: async (raw) => {
      // Numbers JSON cannot carry arrive as sentinels.
      const numbers = { __NaN__: NaN, __Infinity__: Infinity, "__-Infinity__": -Infinity };
      const { op, args } = JSON.parse(raw, (k, v) => (typeof v === "string" && v in numbers ? numbers[v] : v));
      if (op === "runs") return runs;
      if (op === "open") { gates.get(args[0])?.(); gates.delete(args[0]); return "opened"; }
      if (op === "bad") {
        try {
          ctx.registerIdleTask(...args.map((a) => (a === "__fn__" ? () => {} : a)));
          return "accepted";
        } catch (error) {
          return error.name + ": " + error.message;
        }
      }
      return "unknown op";
    },
  });
}`;

interface Setup {
  id: string;
  clock: ManualClock;
  activity: ActivityMonitor;
  scheduler: IdleTaskScheduler;
  manager: PluginManager;
  claims: IdleClaims;
  command(op: string, ...args: unknown[]): Promise<unknown>;
  runs(): Promise<Record<string, unknown>[]>;
  status(): ReturnType<IdleTaskStatusFile["readAll"]>;
}

const open: Setup[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) {
    s.scheduler.stop();
    await s.manager.close();
    await s.scheduler.settled();
  }
});

async function setup(
  id: string,
  tasks: TaskSetup[],
  options: { deadlineMs?: number; clock?: ManualClock; idleSince?: number; write?: boolean } = {},
): Promise<Setup> {
  const clock = options.clock ?? new ManualClock();
  const activity = new ActivityMonitor(clock, options.idleSince ?? clock.now());
  const claims = new IdleClaims(claimsDir(rig.home), () => clock.now());
  const scheduler = new IdleTaskScheduler({
    home: rig.home,
    clock,
    activity,
    claims,
    log: rig.log,
    ...(options.deadlineMs !== undefined && { deadlineMs: options.deadlineMs }),
  });
  if (options.write !== false) writePlugin(rig.userPlugins, id, { "index.js": idlePlugin(tasks) });
  rig.settings.update((doc) => {
    doc.plugins = { ...doc.plugins, enabled: [id] };
  });
  const manager = rig.manager({ idleTasks: scheduler });
  await manager.start();
  expect(manager.get(id)).toMatchObject({ status: "loaded" });
  await waitFor(() => scheduler.list(id).length === tasks.length, 5000, "the idle tasks to register");
  const command = async (op: string, ...args: unknown[]) =>
    rig.commands
      .get(`idle-${id}`)!
      .handler(JSON.stringify({ op, args }), { sessionId: "s", gatewaySessionKey: "g" });
  const s: Setup = {
    id,
    clock,
    activity,
    scheduler,
    manager,
    claims,
    command,
    runs: async () => (await command("runs")) as Record<string, unknown>[],
    status: () => new IdleTaskStatusFile(rig.home, id).readAll(),
  };
  open.push(s);
  return s;
}

const running = (s: Setup, name: string) => s.scheduler.list(s.id).find((t) => t.name === name)?.running;

describe("when an idle task runs", () => {
  it("defer: the first run waits one interval from registration and the idle time; later runs one interval after the last", async () => {
    const s = await setup("idle-defer", [
      { name: "prune", behaviour: "ok", options: { intervalHours: 3, minIdleHours: 2 } },
    ]);
    const registered = s.status().prune!.first_registered;
    expect(registered).toBe(new Date(s.clock.now()).toISOString());
    s.clock.advance(3 * HOUR - MINUTE);
    expect(running(s, "prune")).toBe(false);
    expect(s.status().prune!.last_run).toBeNull();
    s.clock.advance(MINUTE);
    expect(running(s, "prune")).toBe(true);
    await s.scheduler.settled();
    expect(s.status().prune).toMatchObject({ last_status: "ok", last_error: null });
    const firstRun = Date.parse(s.status().prune!.last_run!);
    expect(firstRun).toBe(Date.parse(registered) + 3 * HOUR);

    s.clock.advance(3 * HOUR - 1);
    expect(running(s, "prune")).toBe(false);
    s.clock.advance(1);
    expect(running(s, "prune")).toBe(true);
    await s.scheduler.settled();
    const runs = await s.runs();
    expect(runs).toHaveLength(2);
    // fn gets no side-question token (docs/contract.md §9.4), and what the previous run did.
    expect(runs[0]).toMatchObject({
      task: "prune",
      lastRun: null,
      lastStatus: null,
      sideQuestionToken: null,
    });
    expect(runs[1]).toMatchObject({
      lastRun: new Date(firstRun).toISOString(),
      lastStatus: "ok",
      sideQuestionToken: null,
    });
    expect(runs[0]!.keys).toEqual(["lastRun", "lastStatus", "sideQuestionToken", "task"]);
  });

  it("a seconds interval runs every second while idle, one at a time; runs today are counted and shown, per local day", async () => {
    // 23:59:50 local time, so the day turns over within the test.
    const start = new Date(2026, 10, 29, 23, 59, 50).getTime();
    const s = await setup(
      "idle-seconds",
      [
        {
          name: "tick",
          behaviour: "ok",
          options: { intervalHours: 1 / 3600, minIdleHours: 0, firstRun: "now" },
        },
      ],
      { clock: new ManualClock(start), idleSince: start - HOUR },
    );
    const views = () => idleTaskViews(s.scheduler, rig.home, s.id, s.clock.now());
    for (let second = 0; second < 5; second++) {
      await waitFor(() => running(s, "tick") === false && s.status().tick?.last_status === "ok");
      s.clock.advance(1_000);
    }
    await s.scheduler.settled();
    const runsBefore = (await s.runs()).length;
    expect(runsBefore).toBeGreaterThanOrEqual(5);
    expect(views()[0]).toMatchObject({ name: "tick", intervalHours: 1 / 3600, runsToday: runsBefore });
    expect(s.status().tick).toMatchObject({ runs_today: runsBefore });
    // Past local midnight the count starts over.
    s.clock.advance(10_000);
    await waitFor(() => running(s, "tick") === false && (s.status().tick?.runs_today ?? 0) === 1);
    expect(views()[0]!.runsToday).toBe(1);
    expect(idleTaskViews({ list: () => [] }, rig.home, s.id, s.clock.now())[0]).toMatchObject({
      name: "tick",
      intervalHours: null,
      runsToday: 1,
    });
  });

  it("now: runs as soon as the app has been idle minIdleHours (default 2), without waiting an interval", async () => {
    const s = await setup("idle-now", [
      { name: "warm", behaviour: "ok", options: { intervalHours: 24, firstRun: "now" } },
    ]);
    s.clock.advance(2 * HOUR - 1);
    expect(running(s, "warm")).toBe(false);
    s.clock.advance(1);
    expect(running(s, "warm")).toBe(true);
    await s.scheduler.settled();
    expect(s.status().warm!.last_status).toBe("ok");
  });

  it("a person's input restarts the idle time; a running turn holds every run until it ends and the idle time passed again", async () => {
    const s = await setup("idle-activity", [
      { name: "tidy", behaviour: "ok", options: { intervalHours: 1, minIdleHours: 2, firstRun: "now" } },
    ]);
    s.clock.advance(90 * MINUTE);
    s.activity.personInput();
    s.clock.advance(2 * HOUR - 1);
    expect(running(s, "tidy")).toBe(false);
    s.activity.turnStarted("turn-1");
    s.clock.advance(10 * HOUR);
    expect(running(s, "tidy")).toBe(false);
    expect(s.activity.idleSince()).toBeNull();
    s.activity.turnFinished("turn-1");
    s.clock.advance(2 * HOUR - 1);
    expect(running(s, "tidy")).toBe(false);
    s.clock.advance(1);
    expect(running(s, "tidy")).toBe(true);
    await s.scheduler.settled();
    expect(s.status().tidy!.last_run).toBe(new Date(s.clock.now()).toISOString());
  });
});

describe("one run at a time, failures and deadlines", () => {
  it("never starts a task again while its run is going, however long it takes", async () => {
    const s = await setup(
      "idle-slow",
      [
        {
          name: "slow",
          behaviour: "gate",
          options: { intervalHours: 1, minIdleHours: MIN_IDLE, firstRun: "now" },
        },
      ],
      { deadlineMs: 5 * HOUR },
    );
    s.clock.advance(MINUTE);
    expect(running(s, "slow")).toBe(true);
    await waitFor(async () => (await s.runs()).length === 1, 5000, "the run to start in the worker");
    s.clock.advance(3 * HOUR); // three intervals, still under the deadline
    expect(running(s, "slow")).toBe(true);
    expect((await s.runs()).length).toBe(1);
    expect(await s.command("open", "slow")).toBe("opened");
    // Its interval passed long ago (counted from the start): the next run follows the end at once.
    await waitFor(async () => (await s.runs()).length === 2, 5000, "the next run");
    expect(s.status().slow!.last_status).toBe("ok");
    expect(s.status().slow!.last_run).toBe(new Date(s.clock.now()).toISOString());
    expect(await s.command("open", "slow")).toBe("opened");
    await s.scheduler.settled();
    expect(running(s, "slow")).toBe(false);
  });

  it("an exception is caught and recorded as error, with its message; the next run comes an interval later", async () => {
    const s = await setup("idle-throw", [
      {
        name: "boom",
        behaviour: "throw",
        options: { intervalHours: 1, minIdleHours: MIN_IDLE, firstRun: "now" },
      },
    ]);
    s.clock.advance(MINUTE);
    await s.scheduler.settled();
    expect(s.status().boom).toMatchObject({ last_status: "error" });
    expect(s.status().boom!.last_error).toContain("prune failed: disk full");
    expect(
      rig.logLines().some((l) => /WARN idle_task_run plugin=idle-throw task=boom status=error/.test(l)),
    ).toBe(true);
    expect(s.manager.get("idle-throw").status).toBe("loaded");
    s.clock.advance(HOUR - 1);
    expect(running(s, "boom")).toBe(false);
    s.clock.advance(1);
    expect(running(s, "boom")).toBe(true);
    await s.scheduler.settled();
  });

  it("a run that hangs is recorded as timeout at its deadline; the hung fn is not joined by a second run", async () => {
    const s = await setup(
      "idle-hang",
      [
        {
          name: "stuck",
          behaviour: "hang",
          options: { intervalHours: 1, minIdleHours: MIN_IDLE, firstRun: "now" },
        },
      ],
      { deadlineMs: 10 * MINUTE },
    );
    s.clock.advance(MINUTE);
    await waitFor(async () => (await s.runs()).length === 1, 5000, "the run to start in the worker");
    s.clock.advance(10 * MINUTE - 1);
    expect(running(s, "stuck")).toBe(true);
    s.clock.advance(1);
    await s.scheduler.settled();
    expect(s.status().stuck).toMatchObject({ last_status: "timeout" });
    expect(s.status().stuck!.last_error).toContain("did not finish within 600 s");
    expect(s.manager.get("idle-hang").status).toBe("loaded");
    // An interval later the first fn still hangs in the worker: the second start is refused there.
    s.clock.advance(HOUR - 10 * MINUTE);
    await s.scheduler.settled();
    expect(s.status().stuck).toMatchObject({ last_status: "error" });
    expect(s.status().stuck!.last_error).toContain("still running from an earlier start");
    expect((await s.runs()).length).toBe(1);
  });
});

describe("stopping, disabling, restarts and crashes", () => {
  it("starts nothing once the host is stopping", async () => {
    const s = await setup("idle-stop", [
      { name: "late", behaviour: "ok", options: { intervalHours: 1, minIdleHours: 1, firstRun: "now" } },
    ]);
    s.scheduler.stop();
    s.clock.advance(48 * HOUR);
    expect(running(s, "late")).toBe(false);
    expect(s.status().late!.last_run).toBeNull();
    expect(await s.runs()).toEqual([]);
  });

  it("a disabled plugin's tasks leave at once and never run", async () => {
    const s = await setup("idle-off", [
      { name: "gone", behaviour: "ok", options: { intervalHours: 1, minIdleHours: 1, firstRun: "now" } },
    ]);
    await s.manager.setEnabled("idle-off", false);
    expect(s.scheduler.list("idle-off")).toEqual([]);
    s.clock.advance(48 * HOUR);
    expect(s.status().gone!.last_run).toBeNull();
  });

  it("last_run, last_status and the first registration survive a restart: no interval starts over", async () => {
    const tasks: TaskSetup[] = [
      {
        name: "daily",
        behaviour: "ok",
        options: { intervalHours: 3, minIdleHours: MIN_IDLE, firstRun: "now" },
      },
      { name: "later", behaviour: "ok", options: { intervalHours: 5, minIdleHours: 0 } },
    ];
    const first = await setup("idle-restart", tasks);
    first.clock.advance(MINUTE);
    await first.scheduler.settled();
    const ranAt = first.status().daily!.last_run!;
    first.clock.advance(HOUR);
    first.scheduler.stop();
    await first.manager.close();
    open.splice(open.indexOf(first), 1);

    const clock = new ManualClock(first.clock.now());
    const second = await setup("idle-restart", tasks, { clock, write: false });
    expect(second.status().daily).toMatchObject({ last_run: ranAt, last_status: "ok" });
    // daily ran 1 h before the restart: it waits 2 more hours, not 3.
    clock.advance(2 * HOUR - 1);
    expect(running(second, "daily")).toBe(false);
    clock.advance(1);
    expect(running(second, "daily")).toBe(true);
    // later was first registered a minute before daily first ran: due 5 h after that.
    expect(running(second, "later")).toBe(false);
    clock.advance(2 * HOUR - MINUTE - 1);
    expect(running(second, "later")).toBe(false);
    clock.advance(1);
    expect(running(second, "later")).toBe(true);
    await second.scheduler.settled();
    expect(second.status().later!.last_status).toBe("ok");
  });

  it("a claim left by a process that is gone is taken over; one a live process holds is respected", async () => {
    const s = await setup("idle-claim", [
      {
        name: "shared",
        behaviour: "ok",
        options: { intervalHours: 1, minIdleHours: MIN_IDLE, firstRun: "now" },
      },
    ]);
    const file = s.claims.file("idle-claim", "shared");
    fs.mkdirSync(path.dirname(file), { recursive: true });

    // A live holder: another app process on the same data home, mid-run.
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    try {
      fs.writeFileSync(file, JSON.stringify({ pid: holder.pid, instance: "other-app", claimedAt: "x" }));
      s.clock.advance(MINUTE);
      expect(running(s, "shared")).toBe(false);
      expect(s.status().shared!.last_run).toBeNull();
      expect(
        rig.logLines().some((l) => l.includes("INFO idle_task_held plugin=idle-claim task=shared")),
      ).toBe(true);
    } finally {
      holder.kill();
    }
    await new Promise((resolve) => holder.once("exit", resolve));

    // That process crashed holding it: its claim is stale now, and is taken over at the next look.
    const dead = spawnSync(process.execPath, ["-e", ""]).pid;
    fs.writeFileSync(file, JSON.stringify({ pid: dead, instance: "crashed-app", claimedAt: "x" }));
    s.clock.advance(5 * MINUTE);
    expect(running(s, "shared")).toBe(true);
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toMatchObject({
      pid: process.pid,
      instance: s.claims.instance,
    });
    await s.scheduler.settled();
    expect(s.status().shared!.last_status).toBe("ok");
    expect(fs.existsSync(file)).toBe(false); // released after the run
  });

  it("a claim held by another app process is respected until that process is killed, then taken over", async () => {
    const dir = path.join(rig.home, "claims-cross-process");
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(import.meta.dirname, "support", "idle-claim-child.ts"), dir, "p", "t"],
      { cwd: process.cwd(), stdio: ["ignore", "pipe", "inherit"] },
    );
    const exited = once(child, "exit");
    const [line] = (await once(createInterface({ input: child.stdout! }), "line")) as [string];
    expect(line).toBe("CLAIMED");
    const clock = new ManualClock();
    const claims = new IdleClaims(dir, () => clock.now());
    expect(claims.tryClaim("p", "t")).toBeNull();
    expect(claims.holder("p", "t")).toMatchObject({ pid: child.pid });
    child.kill("SIGKILL");
    await exited;
    const claim = claims.tryClaim("p", "t");
    expect(claim).not.toBeNull();
    expect(claims.holder("p", "t")).toMatchObject({ pid: process.pid, instance: claims.instance });
    claim!.release();
    expect(claims.holder("p", "t")).toBeNull();
  });

  it("a claim a previous host in this same process left (a crash mid-run) is taken over", () => {
    const clock = new ManualClock();
    const dir = path.join(rig.home, "claims-same-process");
    const before = new IdleClaims(dir, () => clock.now());
    expect(before.tryClaim("p", "t")).not.toBeNull();
    const after = new IdleClaims(dir, () => clock.now());
    const again = after.tryClaim("p", "t");
    expect(again).not.toBeNull();
    expect(after.holder("p", "t")).toMatchObject({ instance: after.instance });
    // The live owner itself is not taken over.
    expect(
      new IdleClaims(
        dir,
        () => clock.now(),
        () => true,
      ).tryClaim("p", "t"),
    ).not.toBeNull();
  });
});

describe("bad arguments", () => {
  it("each is refused in the plugin with a message that says what to fix", async () => {
    const s = await setup("idle-bad", []);
    const bad = (...args: unknown[]) => s.command("bad", ...args);
    expect(await bad("../x", "__fn__", { intervalHours: 1 })).toBe(
      'PluginRegistrationError: registerIdleTask: the name must be 1 to 64 letters, digits, _ or - (got "../x").',
    );
    expect(await bad("ok", "not a function", { intervalHours: 1 })).toBe(
      'PluginRegistrationError: registerIdleTask("ok") needs a function to run.',
    );
    expect(await bad("ok", "__fn__")).toContain("needs options {intervalHours, minIdleHours?, firstRun?}");
    expect(await bad("ok", "__fn__", {})).toContain("intervalHours must be a number of hours, e.g. 24");
    // docs/contract.md §9.4: any positive number; 0, negative and non-numbers are refused.
    for (const zeroOrLess of [0, -1, -1e-9]) {
      expect(await bad("ok", "__fn__", { intervalHours: zeroOrLess })).toBe(
        `PluginRegistrationError: registerIdleTask("ok"): intervalHours must be more than 0 hours, e.g. 24 (or 1/3600 for a second); got ${zeroOrLess}.`,
      );
    }
    for (const [notNumber, shown] of [
      ["__NaN__", "NaN"],
      ["__Infinity__", "Infinity"],
      ["__-Infinity__", "-Infinity"],
      ["24", '"24"'],
      [null, "null"],
      [true, "true"],
    ] as const) {
      expect(await bad("ok", "__fn__", { intervalHours: notNumber })).toBe(
        `PluginRegistrationError: registerIdleTask("ok"): intervalHours must be a number of hours, e.g. 24 (or 1/3600 for a second); got ${shown}.`,
      );
    }
    expect(await bad("ok", "__fn__", { intervalHours: 1, minIdleHours: -1 })).toContain(
      "minIdleHours must be between 0 and 8760; got -1",
    );
    expect(await bad("ok", "__fn__", { intervalHours: 1, minIdleHours: "2" })).toContain(
      "minIdleHours must be a number of hours",
    );
    expect(await bad("ok", "__fn__", { intervalHours: 1, firstRun: "later" })).toBe(
      'PluginRegistrationError: registerIdleTask("ok"): firstRun must be "defer" or "now"; got "later".',
    );
    expect(await bad("ok", "__fn__", { intervalHours: 1, every: 2 })).toContain(
      'unknown option "every"; use intervalHours, minIdleHours, firstRun',
    );
    expect(s.scheduler.list("idle-bad")).toEqual([]);
    // A second, a minute's fraction, a century: every positive interval is taken.
    for (const interval of [1 / 3600, 1e-6, 24 * 365 * 100]) {
      expect(
        await bad(`every-${String(interval).replace(/\W/g, "_")}`, "__fn__", { intervalHours: interval }),
      ).toBe("accepted");
    }
    await waitFor(() => s.scheduler.list("idle-bad").length === 3);
    expect(await bad("fine", "__fn__", { intervalHours: 1 })).toBe("accepted");
    await waitFor(() => s.scheduler.list("idle-bad").length === 4);
    expect(s.scheduler.list("idle-bad").find((t) => t.name === "fine")!.options).toEqual({
      intervalHours: 1,
      minIdleHours: 2,
      firstRun: "defer",
    });
  });

  it("the host checks again what a worker sends (numbers that are not finite)", () => {
    expect(parseIdleTaskOptions("t", { intervalHours: Number.NaN })).toMatchObject({ ok: false });
    expect(parseIdleTaskOptions("t", { intervalHours: Infinity })).toMatchObject({ ok: false });
    expect(parseIdleTaskOptions("t", { intervalHours: 1, minIdleHours: Infinity })).toMatchObject({
      ok: false,
    });
    expect(parseIdleTaskOptions("t", [1])).toMatchObject({ ok: false });
    expect(
      parseIdleTaskOptions("t", { intervalHours: 0.5, minIdleHours: MIN_IDLE, firstRun: "now" }),
    ).toEqual({
      ok: true,
      options: { intervalHours: 0.5, minIdleHours: MIN_IDLE, firstRun: "now" },
    });
  });
});
