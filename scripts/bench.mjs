#!/usr/bin/env node
// `npm run bench`: every figure of SPEC §12 that this build has, each measured side by side with
// its baseline in the same run and printed as one line with the ratio.
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const dir = join(dirname(fileURLToPath(import.meta.url)), "bench");
const only = process.argv.slice(2);
let failed = 0;
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith(".bench.mjs"))
  .sort()) {
  const name = file.replace(".bench.mjs", "");
  if (only.length && !only.includes(name)) continue;
  try {
    const { run } = await import(pathToFileURL(join(dir, file)).href);
    for (const line of await run()) console.log(line);
  } catch (err) {
    failed += 1;
    console.log(`${name}: failed: ${err.message}`);
  }
}
process.exit(failed ? 1 : 0);
