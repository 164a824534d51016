#!/usr/bin/env node
// `npm run test:stress`: the stress suites at full size (HERMES_STRESS=1), one after another, each
// printing what it tried and what it found (counts), and the targets judged here, not in `npm test`:
//   trust-property  10,000 generated ctx.llm calls and 10,000 side-question/fork token checks
//   restart-storm   1,000 calls to a plugin that crashes on each; a steady plugin's median latency
//                   beside the storm within 1.2x its unloaded median
//   fault-matrix    every provider fault × every step that calls a provider, every plugin fault ×
//                   every entry point: a clear error, another chat served, nothing lost, none busy
//   load            50 plugins, 100 plugin RPC jobs and 20 streaming chats at once: all complete,
//                   host.info (asked every 10 ms, timed from when due) p99 < 100 ms
//   soak            10,000 turns across 200 chats: resident memory grows < 10 % after the first
//                   1,000 turns; handles, listeners and prepared statements do not creep up
//   large-store     a damaged store larger than the 32 MB check at start: salvaged in use
//   keychain        the keychain locked, and gone, in the middle of a session (own bus and keyring)
// `npm run test:stress -- NAME…` runs only those suites. Exit 1 when a suite fails or misses a target.
// Like `npm test`, without a session bus it re-runs itself under dbus-run-session with a throwaway
// unlocked gnome-keyring (the plugin rigs use the real keychain).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureNativeAbi } from "./native-abi.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const which = (cmd) =>
  spawnSync("sh", ["-c", `command -v ${cmd}`], { encoding: "utf8" }).stdout.trim() || null;

if (!process.env.DBUS_SESSION_BUS_ADDRESS && !process.env.HERMES_TEST_KEYRING) {
  for (const [cmd, pkg] of [
    ["dbus-run-session", "dbus dbus-x11"],
    ["gnome-keyring-daemon", "gnome-keyring"],
  ]) {
    if (!which(cmd)) {
      console.error(
        `npm run test:stress needs ${cmd}: install it (Debian/Ubuntu: sudo apt-get install ${pkg}).`,
      );
      process.exit(1);
    }
  }
  const keyring = mkdtempSync(join(tmpdir(), "hermes-keyring-"));
  mkdirSync(join(keyring, "run"), { recursive: true, mode: 0o700 });
  const inner = `echo -n hermes-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; exec node "${join(root, "scripts", "test-stress.mjs")}" "$@"`;
  const result = spawnSync("dbus-run-session", ["--", "sh", "-c", inner, "sh", ...process.argv.slice(2)], {
    stdio: "inherit",
    env: {
      ...process.env,
      HERMES_TEST_KEYRING: keyring,
      XDG_DATA_HOME: join(keyring, "data"),
      XDG_RUNTIME_DIR: join(keyring, "run"),
    },
  });
  rmSync(keyring, { recursive: true, force: true });
  process.exit(result.status ?? 1);
}

ensureNativeAbi("node");

/** The most a plugin's calls may slow down beside a restart storm (median latency ratio). */
const STORM_LATENCY_RATIO = 1.2;
/** host.info's p99 under load. */
const LOAD_INFO_P99_MS = 100;
/** Resident memory growth allowed after the soak's first 1,000 turns. */
const SOAK_RSS_GROWTH = 0.1;
/** Handles allowed above the count after 1,000 turns (sockets to the fake provider come and go). */
const SOAK_HANDLE_SLACK = 10;

const fmt = (n) => n.toLocaleString("en-US");
/** A soak sample's memory, by where it is (soak.test.ts's MemoryBreakdown). */
const breakdown = (s) => {
  const m = s.memory;
  const mb = (n) => n.toFixed(0);
  const old = m.heapSpaces.old_space;
  return `rss ${mb(s.rssMb)} = ${mb(m.rssAnon)} + ${mb(m.rssFile)}; heap ${mb(m.heapUsed)}/${mb(m.heapCommitted)}, old space ${mb(old.used)}/${mb(old.committed)}; external ${mb(m.external)}, arrayBuffers ${mb(m.arrayBuffers)}; ${m.threads} threads; SQLite cache <= ${mb(m.sqliteCacheBound)}, WAL ${mb(m.sqliteWal)}`;
};
const ms = (n) => `${n.toFixed(3)} ms`;
const list = (counts) =>
  Object.entries(counts)
    .sort(([, a], [, b]) => b - a)
    .map(([what, n]) => `      ${fmt(n).padStart(6)}  ${what}`)
    .join("\n");

const suites = [
  {
    name: "trust-property",
    file: "test/host/plugins/trust-property.test.ts",
    summarize(r) {
      return {
        lines: [
          `ctx.llm: tried ${fmt(r.llm.cases)} generated policy × call cases; ${fmt(r.llm.passed)} passed the gate, ${fmt(r.llm.refused)} refused, each with a documented refusal:`,
          list(r.llm.byRefusal),
          `side questions / forks: tried ${fmt(r.leases.cases)} grant × token cases; capability held in ${fmt(r.leases.held)}, not held in ${fmt(r.leases.notHeld)} (token never spent); ${fmt(r.leases.granted)} got the token; refusals:`,
          list(r.leases.byRefusal),
          "found: no call passed that the contract refuses; no refusal outside the documented ones",
        ],
        misses: [],
      };
    },
  },
  {
    name: "restart-storm",
    file: "test/host/plugins/restart-storm.test.ts",
    summarize(r) {
      const ratio = r.ratioP50;
      const misses =
        ratio <= STORM_LATENCY_RATIO
          ? []
          : [
              `a steady plugin's median latency beside the storm is ${ratio.toFixed(2)}x its unloaded median (target <= ${STORM_LATENCY_RATIO}x)`,
            ];
      return {
        lines: [
          `tried ${fmt(r.stormCalls)} calls to a plugin that crashes on each; answers: ${Object.entries(
            r.reasons,
          )
            .map(([reason, n]) => `${fmt(n)} ${reason}`)
            .join(", ")}`,
          `found: ${fmt(r.userRestarts)} stops after 3 crashes (each followed by Restart), at most ${r.maxAutomaticRestarts} automatic restarts in a row, ${fmt(r.automaticRestartsChecked)} automatic restarts checked against their backoff, ${fmt(r.backoffViolations)} too early`,
          `steady plugin: ${fmt(r.steadyCalls.unloaded)} calls unloaded (median ${ms(r.steadyMs.unloaded.p50)}, p95 ${ms(r.steadyMs.unloaded.p95)}), ${fmt(r.steadyCalls.beside)} beside the storm (median ${ms(r.steadyMs.beside.p50)}, p95 ${ms(r.steadyMs.beside.p95)}): median ratio ${ratio.toFixed(2)}x (target <= ${STORM_LATENCY_RATIO}x), p95 ratio ${r.ratioP95.toFixed(2)}x (not judged)`,
        ],
        misses,
      };
    },
  },
  {
    name: "fault-matrix",
    file: "test/host/stress/fault-matrix.test.ts",
    summarize(r) {
      const expected = r.providerFaults * r.steps + r.pluginFaults * r.entryPoints;
      const misses =
        r.cells === expected
          ? []
          : [`${fmt(r.cells)} cells passed of the ${fmt(expected)} the tables generate`];
      return {
        lines: [
          `tried ${fmt(r.providerCells)} provider cells (${r.providerFaults} faults × ${r.steps} steps) and ${fmt(r.pluginCells)} plugin cells (${r.pluginFaults} faults × ${r.entryPoints} entry points)`,
          `found: every cell a clear error naming what failed (those shown to a person also say what to do); ${fmt(r.bystanderTurns)} other chats' turns completed beside the faults; ${fmt(r.messagesChecked)} saved-message checks, none lost; no turn left busy`,
          `log-line errors (side question, fork, title, compression, hook) that name the failure but give no advice (a log, not judged): ${fmt(r.logOnlyWithoutAdvice.length)}`,
        ],
        misses,
      };
    },
  },
  {
    name: "load",
    file: "test/host/stress/load.test.ts",
    summarize(r) {
      const p99 = r.info.loaded.p99;
      return {
        lines: [
          `tried ${fmt(r.plugins)} plugins loaded, ${fmt(r.jobs)} plugin RPC jobs (each a ctx.llm call) and ${fmt(r.sessions)} chats streaming ${r.replyWords}-word replies at once (provider in its own process)`,
          `found: ${fmt(r.jobsCompleted)} jobs and ${fmt(r.turnsCompleted)} turns completed in ${(r.tookMs / 1000).toFixed(1)} s; host.info every 10 ms, timed from when due: ${fmt(r.info.loaded.calls)} calls under load, p50 ${ms(r.info.loaded.p50)}, p99 ${ms(p99)}, max ${ms(r.info.loaded.max)} (unloaded before: p50 ${ms(r.info.unloaded.p50)}, p99 ${ms(r.info.unloaded.p99)})`,
        ],
        misses:
          p99 < LOAD_INFO_P99_MS
            ? []
            : [`host.info p99 under load is ${ms(p99)} (target < ${LOAD_INFO_P99_MS} ms)`],
      };
    },
  },
  {
    name: "soak",
    file: "test/host/stress/soak.test.ts",
    summarize(r) {
      const total = (s) => Object.values(s.handles).reduce((a, b) => a + b, 0);
      const base = r.samples.find((s) => s.turns >= 1_000) ?? r.samples[0];
      const last = r.samples.at(-1);
      const growth = last.rssMb / base.rssMb - 1;
      const peakHandles = Math.max(...r.samples.filter((s) => s.turns >= base.turns).map(total));
      const lateStatements = r.samples
        .filter((s) => s.turns > base.turns)
        .reduce((a, s) => a + s.statementsPrepared, 0);
      const misses = [];
      if (growth >= SOAK_RSS_GROWTH)
        misses.push(
          `resident memory grew ${(growth * 100).toFixed(1)} % after ${fmt(base.turns)} turns (target < ${SOAK_RSS_GROWTH * 100} %)`,
        );
      if (total(last) > total(base) + SOAK_HANDLE_SLACK)
        misses.push(`active handles rose from ${total(base)} to ${total(last)}`);
      if (last.eventListeners > base.eventListeners)
        misses.push(`event-hub listeners rose from ${base.eventListeners} to ${last.eventListeners}`);
      if (lateStatements > 0) misses.push(`${fmt(lateStatements)} SQLite statements prepared after warm-up`);
      const every = r.samples.filter((s) => s.turns % 1_000 === 0);
      return {
        lines: [
          `tried ${fmt(r.turns)} turns across ${fmt(r.sessions)} chats (${r.lanes} at once): ${fmt(r.toolTurns)} with a tool call, ${fmt(r.sideQuestions)} side questions`,
          `found: every turn completed (${fmt(r.failed.length)} failed), ${fmt(r.sideAnswers)} side questions answered, ${fmt(r.stored)} messages stored, in ${(r.tookMs / 1000).toFixed(0)} s`,
          `resident memory after ${fmt(base.turns)} turns ${base.rssMb.toFixed(0)} MB, after ${fmt(last.turns)} ${last.rssMb.toFixed(0)} MB: ${(growth * 100).toFixed(1)} % (target < ${SOAK_RSS_GROWTH * 100} %); heap ${base.heapMb.toFixed(0)} → ${last.heapMb.toFixed(0)} MB; plugin host ${base.pluginHostRssMb?.toFixed(0)} → ${last.pluginHostRssMb?.toFixed(0)} MB`,
          `per 1,000 turns (turns: rss MB / handles / listeners / statements prepared): ${every.map((s) => `${fmt(s.turns)}: ${s.rssMb.toFixed(0)}/${total(s)}/${s.eventListeners}/${s.statementsPrepared}`).join(", ")}; peak handles after warm-up ${peakHandles}`,
          `where resident memory is, MB (turns: rss = anonymous + file-backed; V8 heap used/committed, its old space used/committed; external, arrayBuffers; threads; SQLite cache bound, WAL):`,
          ...[base, last].map((s) => `      ${fmt(s.turns).padStart(6)}: ${breakdown(s)}`),
          ...(r.rested
            ? [
                `after ${r.idleMs / 1000} s at rest (V8's memory reducer): ${breakdown(r.rested)}`,
                `after a compacting collection (what is kept at all): ${breakdown(r.compacted)}`,
              ]
            : []),
        ],
        misses,
      };
    },
  },
  {
    name: "large-store",
    file: "test/host/sessions/store/large-damaged-store.test.ts",
    report: false,
    summarize() {
      return {
        lines: [
          "tried a session store larger than 32 MB (the bound of SQLite's check at start) with random bytes in a page in the middle",
          "found: it opened unchecked; the first read that met the damage moved it aside whole and salvaged it; every readable message kept, byte for byte; new chats written",
        ],
        misses: [],
      };
    },
  },
];

suites.push({
  name: "keychain",
  file: "test/host/stress/keychain-midsession.test.ts",
  report: false,
  summarize() {
    return {
      lines: [
        "tried 2 cells: the keychain locked (Secret Service Lock), and its daemon stopped, between two turns of two chats (a host on its own bus and keyring)",
        "found: both chats answered with the key already read; a new key was refused with keychain_unavailable saying why and what to do (unlock, or key_env), nothing written; no message lost; no turn left busy",
      ],
      misses: [],
    };
  },
});

const only = process.argv.slice(2);
const unknown = only.filter((name) => !suites.some((s) => s.name === name));
if (unknown.length > 0) {
  console.error(
    `Unknown stress suite ${unknown.join(", ")}; the suites are ${suites.map((s) => s.name).join(", ")}.`,
  );
  process.exit(2);
}

const reports = mkdtempSync(join(tmpdir(), "hermes-stress-"));
const outcomes = [];
const started = Date.now();
for (const suite of suites.filter((s) => only.length === 0 || only.includes(s.name))) {
  console.log(`\n── ${suite.name} ──`);
  const report = join(reports, `${suite.name}.json`);
  const begun = Date.now();
  const run = spawnSync(join(root, "node_modules", ".bin", "vitest"), ["run", suite.file], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, HERMES_STRESS: "1", HERMES_STRESS_REPORT: report },
  });
  const seconds = Math.round((Date.now() - begun) / 1000);
  if (run.status !== 0 || (suite.report !== false && !existsSync(report))) {
    outcomes.push({
      name: suite.name,
      ok: false,
      lines: [`the suite failed (exit ${run.status}) after ${seconds} s`],
    });
    continue;
  }
  const { lines, misses } = suite.summarize(
    suite.report === false ? null : JSON.parse(readFileSync(report, "utf8")),
  );
  outcomes.push({
    name: suite.name,
    ok: misses.length === 0,
    lines: [...lines, ...misses.map((m) => `MISSED: ${m}`), `took ${seconds} s`],
  });
}
rmSync(reports, { recursive: true, force: true });

console.log(`\n── stress summary (${Math.round((Date.now() - started) / 1000)} s) ──`);
for (const outcome of outcomes) {
  console.log(`${outcome.ok ? "✓" : "✗"} ${outcome.name}`);
  for (const line of outcome.lines.flatMap((l) => l.split("\n"))) console.log(`    ${line}`);
}
process.exit(outcomes.every((o) => o.ok) ? 0 : 1);
