#!/usr/bin/env node
// `npm run bench [-- name …] [-- --json]`: every figure of the benchmarks, each measured side by
// side with its baseline in the same run. Text: one line per figure. `--json`: one JSON object,
// `{"figures": [{name, value, unit, baseline, ratio, target, met, …}]}` (a failed bench is a figure
// with `error` and `met: false`).
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { formatFigure } from "./bench/figure.mjs";

const dir = join(dirname(fileURLToPath(import.meta.url)), "bench");
const args = process.argv.slice(2);
const json = args.includes("--json");
// A bench is named by its file (`cold-start`) or its figure's spelling (`cold_start`).
const only = args.filter((a) => a !== "--json").map((a) => a.replaceAll("_", "-"));
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.mjs"))
  .sort();
const names = files.map((file) => file.replace(".bench.mjs", ""));
const unknown = only.filter((name) => !names.includes(name));
if (unknown.length) {
  console.error(`No benchmark named ${unknown.join(", ")}. Benchmarks: ${names.join(", ")}.`);
  process.exit(2);
}
const figures = [];
let failed = 0;
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
    failed += 1;
    figures.push({ name, error: err.message, met: false });
    if (!json) console.log(`${name}: failed: ${err.message}`);
  }
}
if (json) console.log(JSON.stringify({ figures: figures.map(({ text: _text, ...f }) => f) }));
process.exit(failed ? 1 : 0);
