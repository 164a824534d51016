// Starts a Node server process and resolves with the first loopback URL it prints.
import { spawn } from "node:child_process";

export function spawnUntilUrl(args, { cwd, env = {}, name = "server" } = {}) {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`${name} exited with ${code}`)));
  });
  return { child, url };
}

/**
 * Stops a spawned host and waits for its exit: the host writes its last state (plugin counters)
 * as it stops, so removing its home before then races those writes.
 */
export async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill();
  await exited;
}
