#!/usr/bin/env node
// `npm run bench [-- NAME…] [--json] [--no-fail]`: the figures of SPEC §12, each measured side by
// side with its floor in the same run. Text: one line per figure. `--json`: one JSON object,
// `{"figures": [{name, value, unit, floor, ratio, target, met, checks, …}]}` (a failed bench is a
// figure with `error` and `met: false`). Exits 1 when any figure misses (`--no-fail`: 0 all the
// same). Every run is kept in bench/results/ with the machine it ran on.
// `npm run bench -- --compare A B`: two kept runs side by side (a path, a file name in
// bench/results/, `latest` or `previous`).
// BENCH_DIR / BENCH_RESULTS_DIR: other folders for the benches and the runs (the tests use them).
import { readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { formatFigure } from "./bench/figure.mjs";
import { commitOf, compareRuns, findRun, machine, saveRun } from "./bench/results.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dir = resolve(process.env.BENCH_DIR ?? join(root, "scripts", "bench"));
const resultsDir = resolve(process.env.BENCH_RESULTS_DIR ?? join(root, "bench", "results"));
const args = process.argv.slice(2);

const compareAt = args.indexOf("--compare");
if (compareAt >= 0) {
  const [a, b] = args.slice(compareAt + 1);
  if (!a || !b || a.startsWith("--") || b.startsWith("--")) {
    console.error(
      "Usage: npm run bench -- --compare A B (a path, a file in bench/results/, latest or previous).",
    );
    process.exit(2);
  }
  try {
    console.log(compareRuns(findRun(resultsDir, a), findRun(resultsDir, b)));
    process.exit(0);
  } catch (err) {
    console.error(err.message);
    process.exit(2);
  }
}

const flags = ["--json", "--no-fail"];
const json = args.includes("--json");
const failOnMiss = !args.includes("--no-fail");
const unknownFlags = args.filter((a) => a.startsWith("--") && !flags.includes(a));
if (unknownFlags.length) {
  console.error(`Unknown flag ${unknownFlags.join(", ")}. Flags: ${flags.join(", ")}, --compare A B.`);
  process.exit(2);
}
// A bench is named by its file (`cold-start`) or its figure's spelling (`cold_start`); a figure
// that shares a file with others is named by it too, and runs its file.
const figureFiles = {
  "session-search-first": "session-search",
  "llm-overhead-in-worker": "plugin-llm-overhead",
  "plugin-llm-time-to-answer": "plugin-llm-overhead",
};
const only = [
  ...new Set(
    args
      .filter((a) => !a.startsWith("--"))
      .map((a) => a.replaceAll("_", "-"))
      .map((name) => figureFiles[name] ?? name),
  ),
];
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.mjs"))
  .sort();
const names = files.map((file) => file.replace(".bench.mjs", ""));
const unknown = only.filter((name) => !names.includes(name));
if (unknown.length) {
  console.error(`No benchmark named ${unknown.join(", ")}. Benchmarks: ${names.join(", ")}.`);
  process.exit(2);
}

const started = new Date().toISOString();
const onMachine = machine();
const figures = [];
for (const file of files) {
  const name = file.replace(".bench.mjs", "");
  if (only.length && !only.includes(name)) continue;
  try {
    const { run } = await import(pathToFileURL(join(dir, file)).href);
    for (const figure of await run()) {
      figures.push(figure);
      if (!json) console.log(formatFigure(figure));
    }
  } catch (err) {
    const failed = { name, error: err.message, met: false };
    figures.push(failed);
    if (!json) console.log(formatFigure(failed));
  }
}
const plain = figures.map(({ text: _text, ...f }) => f);
const saved = saveRun(resultsDir, {
  started,
  finished: new Date().toISOString(),
  commit: commitOf(root),
  only,
  machine: onMachine,
  figures: plain,
});
if (json) console.log(JSON.stringify({ figures: plain }));
const missed = figures.filter((f) => !f.met).map((f) => f.name);
const where = relative(process.cwd(), saved) || saved;
// Said on stderr, so `--json`'s stdout stays one JSON object.
console.error(
  `${missed.length ? `Missed: ${missed.join(", ")}.` : "Every figure met its target."} Run kept in ${where}.`,
);
process.exit(missed.length && failOnMiss ? 1 : 0);
