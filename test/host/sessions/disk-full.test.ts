/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results and event payloads are read as plain JSON here. */
/**
 * The disk fills while a reply streams: a real small tmpfs as the data home (mounting needs root;
 * where it is refused the test is skipped and says why).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../support/temp-home.js";
import { startSessionRig, type SessionRig } from "./support/session-rig.js";

const SIZE = "4m";
let mountPoint: string | null = null;
let refused = "";

function tryMount(): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-disk-full-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${SIZE}`, "tmpfs", dir], { stdio: "pipe" });
    mountPoint = dir;
  } catch (error) {
    refused = `mounting a ${SIZE} tmpfs was refused here (${String((error as Error).message).split("\n")[0]}); run as root to test a full disk`;
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes a file until the disk refuses; returns its path. */
function fillDisk(dir: string): string {
  const filler = path.join(dir, "filler.bin");
  const fd = fs.openSync(filler, "w");
  const block = Buffer.alloc(16 * 1024, 1);
  try {
    for (;;) fs.writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  } finally {
    fs.closeSync(fd);
  }
  return filler;
}

beforeAll(() => tryMount());
afterAll(() => {
  if (!mountPoint) return;
  execFileSync("umount", [mountPoint]);
  fs.rmSync(mountPoint, { recursive: true, force: true });
});

describe("the disk fills while a reply streams", () => {
  it("keeps the reply so far, says the disk is full, damages nothing saved, and recovers when space returns", async (ctx) => {
    if (!mountPoint) ctx.skip(refused);
    const home = path.join(mountPoint!, "home");
    fs.mkdirSync(home);
    let rig: SessionRig | null = null;
    try {
      rig = await startSessionRig({ home });
      const { sessionId } = await rig.ok("session.create", { title: "Full disk" });
      rig.main.enqueue("Saved before the disk filled");
      await rig.ok("session.send", { sessionId, text: "First question" });
      await rig.idle(sessionId);

      const words = Array.from({ length: 4_000 }, (_, i) => `word${i}`).join(" ");
      rig.main.enqueue({ kind: "text", content: `Beginning of the reply. ${words}`, holdAfterChunks: 3 });
      const { turnId } = await rig.ok("session.send", { sessionId, text: "Second question" });
      await rig.waitForEvent("session.delta", (p) => p.turnId === turnId);
      const filler = fillDisk(mountPoint!);
      rig.main.release();
      const finished = await rig.waitForEvent("session.turn.finished", (p) => p.turnId === turnId);
      // A clear error on the turn, and a notice on every screen (host.changed makes them look).
      expect(finished.status).toBe("error");
      expect(finished.error).toMatch(/^The disk holding the session store .*sessions\.sqlite is full/);
      expect(finished.error).toMatch(/Free some space on that disk, then send again/);
      await rig.waitForEvent("host.changed");
      const notices = ((await rig.ok("host.info", {})) as any).notices;
      expect(notices).toContainEqual({
        kind: "session_store",
        message: expect.stringMatching(
          /^The disk holding your chats \(.*\) is full: .*Everything saved before is kept/,
        ),
      });
      // Nothing saved earlier is damaged.
      const during = (await rig.ok("session.messages", { sessionId })).messages;
      expect(during.slice(0, 3).map((m: any) => [m.role, m.content, m.status])).toEqual([
        ["user", "First question", "complete"],
        ["assistant", "Saved before the disk filled", "complete"],
        ["user", "Second question", "complete"],
      ]);

      // Space returns: the reply is saved as far as it came, marked with the error, and the notice goes.
      fs.rmSync(filler);
      // The host looks again every second of its clock (a manual one here).
      const reply = await waitFor(
        async () => {
          rig!.clock.advance(1_000);
          const messages = (await rig!.ok("session.messages", { sessionId })).messages;
          const last = messages.at(-1);
          return last?.role === "assistant" && last.status === "error" ? last : null;
        },
        10_000,
        "the cut-short reply to be saved",
      );
      expect(reply.content).toBe(`Beginning of the reply. ${words}`);
      expect(reply.meta.error).toMatch(/is full/);
      await waitFor(
        async () => {
          rig!.clock.advance(1_000);
          const info = (await rig!.ok("host.info", {})) as any;
          return !info.notices.some((n: any) => /is full/.test(n.message));
        },
        10_000,
        "the disk-full notice to go",
      );

      rig.main.enqueue("After space returned");
      await rig.ok("session.send", { sessionId, text: "Third question" });
      await rig.idle(sessionId);
      const after = (await rig.ok("session.messages", { sessionId })).messages;
      expect(after.map((m: any) => m.content).slice(-2)).toEqual(["Third question", "After space returned"]);
      expect(after).toHaveLength(6);
    } finally {
      await rig?.dispose();
    }
  });
});
