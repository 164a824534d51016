/**
 * cold_start's honesty (scripts/bench/window-start.mjs, seed-sessions.mjs): its floor is a static
 * page of the app's first-load size that shows what the app must show before the figure stops (a
 * Message box, Send, the list of chats), and the app's home holds the chats the list must load.
 * Runs against the built tree (out/), as the benches do.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the bench scripts, without type declarations.
import { firstLoad, staticFloorServer } from "../../../scripts/bench/window-start.mjs";
// @ts-expect-error: a plain ES module of the bench scripts, without type declarations.
import { seedSessions } from "../../../scripts/bench/seed-sessions.mjs";

interface Load {
  html: number;
  js: number;
  css: number;
}

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((fn) => fn()));

/** Starts the floor's server source as the bench does (`node -e`); resolves to its URL. */
function startFloor(source: string): Promise<string> {
  const child = spawn(process.execPath, ["-e", source], { stdio: ["ignore", "pipe", "inherit"] });
  cleanups.push(() => child.kill());
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(String(d));
      if (m?.[1]) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`the floor server exited with ${code}`)));
  });
}

describe("cold_start's floor", () => {
  it("weighs what the app's first load weighs, byte for byte, and shows what the figure waits for", async () => {
    const load = firstLoad() as Load;
    expect(load.js).toBeGreaterThan(10_000);
    expect(load.css).toBeGreaterThan(1_000);
    const url = await startFloor(staticFloorServer(load) as string);
    const [html, js, css] = await Promise.all(
      ["", "floor.js", "floor.css"].map(async (path) =>
        Buffer.from(await (await fetch(url + path)).arrayBuffer()),
      ),
    );
    expect(html!.length + js!.length + css!.length).toBe(load.html + load.js + load.css);
    const page = html!.toString();
    expect(page).toContain('<textarea aria-label="Message"');
    expect(page).toContain('<button type="button" aria-label="Send">');
    expect(page).toMatch(/<nav aria-label="Chats"><ul><li class="session-row">/);
  });
});

describe("the benches' seeded chats", () => {
  it("fills the home's session store with the chats and messages asked for", async () => {
    const home = mkdtempSync(join(tmpdir(), "hermes-bench-seed-"));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    expect(await seedSessions(home, { sessions: 7, messages: 20 })).toEqual({ sessions: 7, messages: 140 });
  });
});
