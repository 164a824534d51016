// Runs kept (SPEC §12): each `npm run bench` run is written to `bench/results/` as one JSON file
// with the machine it ran on, and `--compare A B` prints two runs side by side.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, hostname, loadavg, totalmem } from "node:os";
import { basename, join, resolve } from "node:path";
import { findChromium } from "../find-chromium.mjs";

/** CPU model, cores, memory, Node and Chromium versions, and the load when the run began. */
export function machine() {
  const chromium = findChromium();
  let chromiumVersion = null;
  if (chromium) {
    try {
      chromiumVersion = execFileSync(chromium, ["--version"], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
      })
        .trim()
        .split("\n")
        .pop();
    } catch {
      chromiumVersion = null;
    }
  }
  return {
    hostname: hostname(),
    cpu_model: cpus()[0]?.model ?? "unknown",
    cores: cpus().length,
    memory_mb: Math.round(totalmem() / 2 ** 20),
    node: process.version,
    chromium: chromiumVersion,
    platform: `${process.platform} ${process.arch}`,
    load_average: loadavg().map((x) => Number(x.toFixed(2))),
  };
}

/** The commit the run measured, with `+dirty` when the tree had changes; null outside git. */
export function commitOf(dir) {
  try {
    const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: dir, encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], {
      cwd: dir,
      encoding: "utf8",
    }).trim();
    return dirty ? `${head}+dirty` : head;
  } catch {
    return null;
  }
}

/** Writes one run as `<dir>/<started, file-safe>-<what ran>.json`; returns the path. */
export function saveRun(dir, run) {
  mkdirSync(dir, { recursive: true });
  const stamp = run.started.replaceAll(":", "-").replace(/\.\d+Z$/, "Z");
  const what = run.only.length ? run.only.join("+") : "all";
  let path = join(dir, `${stamp}-${what}.json`);
  for (let i = 2; existsSync(path); i++) path = join(dir, `${stamp}-${what}-${i}.json`);
  writeFileSync(path, `${JSON.stringify(run, null, 2)}\n`);
  return path;
}

/**
 * A run named on the command line: a path, a file name in `dir`, or `latest` / `previous` (the
 * newest and second newest run there).
 */
export function findRun(dir, name) {
  const runs = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(".json"))
        .sort()
    : [];
  const newest = { latest: 1, previous: 2 }[name];
  const path = newest
    ? runs.length >= newest
      ? join(dir, runs[runs.length - newest])
      : null
    : existsSync(resolve(name))
      ? resolve(name)
      : existsSync(join(dir, name))
        ? join(dir, name)
        : null;
  if (!path) {
    const kept = runs.length ? `runs kept: ${runs.slice(-5).join(", ")}` : "no run is kept there yet";
    throw new Error(`No bench run "${name}" (a path, a file in ${dir}, latest or previous; ${kept}).`);
  }
  const run = JSON.parse(readFileSync(path, "utf8"));
  if (!Array.isArray(run.figures)) throw new Error(`${path} is not a bench run: it has no "figures" list.`);
  return { ...run, file: basename(path) };
}

const cell = (f) => {
  if (!f) return "—";
  if (f.error) return "failed";
  const n = (x) => (typeof x === "number" ? String(Number(x.toPrecision(4))) : "—");
  return `${n(f.value)} ${f.unit} / ${n(f.floor)} = ${n(f.ratio)}x ${f.met ? "met" : "MISSED"}`;
};

/** Two runs side by side: machine and commit, then one line per figure (value / floor = ratio). */
export function compareRuns(a, b) {
  const about = (run) =>
    `${run.file}: ${run.commit ?? "?"} at ${run.started}, ${run.machine?.cpu_model ?? "?"} × ${run.machine?.cores ?? "?"}, ` +
    `${run.machine?.memory_mb ?? "?"} MB, Node ${run.machine?.node ?? "?"}, ${run.machine?.chromium ?? "no Chromium"}, ` +
    `load ${run.machine?.load_average?.join(" ") ?? "?"}`;
  const names = [...new Set([...a.figures, ...b.figures].map((f) => f.name))];
  const rows = names.map((name) => {
    const fa = a.figures.find((f) => f.name === name);
    const fb = b.figures.find((f) => f.name === name);
    const change =
      typeof fa?.ratio === "number" && typeof fb?.ratio === "number"
        ? `${fb.ratio >= fa.ratio ? "+" : ""}${(((fb.ratio - fa.ratio) / fa.ratio) * 100).toFixed(1)} % ratio`
        : "";
    return [name, cell(fa), cell(fb), change];
  });
  const header = ["figure", "A: value / floor = ratio", "B: value / floor = ratio", "B vs A"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r) =>
    r
      .map((c, i) => c.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  return [`A ${about(a)}`, `B ${about(b)}`, "", line(header), ...rows.map(line)].join("\n");
}
