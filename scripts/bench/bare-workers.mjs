// plugin_load's floor (SPEC §12): `count` bare workers started the way the app starts its plugins'
// (a process spawned under Node's permission model, its workers made at once from a file with
// env {} and a heap cap), timed from the spawn until every worker is up. No plugin host code, no
// plugin, no manifest, no ctx.
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadHost } from "./plugin-host-rig.mjs";
import { stopChild } from "./spawn-url.mjs";

const here = dirname(fileURLToPath(import.meta.url));
// The permission model's switch as the product picks it for this Node (22.13+ and 23.5+ spell it
// `--permission`; 23.0–23.4 still `--experimental-permission`).
export const permission = (await loadHost("plugins/runtime/launch/plugin-host-process.js")).permissionFlag();

/** Resolves to the ms from spawning the floor process to all `count` workers up. */
export async function timeBareWorkers(count) {
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    [
      permission,
      `--allow-fs-read=${here}/`,
      "--allow-worker",
      "--no-warnings",
      join(here, "bare-workers-host.mjs"),
      String(count),
    ],
    { env: {}, stdio: ["ignore", "pipe", "inherit"] },
  );
  try {
    await new Promise((resolve, reject) => {
      child.stdout.on("data", (d) => String(d).includes("ready") && resolve());
      child.once("exit", (code) => reject(new Error(`the bare workers' process exited with ${code}`)));
    });
    return performance.now() - t0;
  } finally {
    await stopChild(child);
  }
}
