/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results and event payloads are read as plain JSON here. */
/**
 * server-filesystem (docs/contract.md §13.3, §13.4): the folders it may touch come from the
 * block's `roots` (answered to roots/list), and `approval: read_only` lets read-only tools run
 * while a write asks first — the "add the filesystem server and have the chat read a file" path.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSessionRig, type SessionRig } from "../sessions/support/session-rig.js";
import { waitFor } from "../support/temp-home.js";
import { filesystemBin } from "./support/mcp-rig.js";

let rig: SessionRig;
let notes: string;
beforeAll(async () => {
  notes = realpathSync(mkdtempSync(join(tmpdir(), "hermes-mcp-notes-")));
  writeFileSync(join(notes, "todo.txt"), "buy oat milk\n");
  rig = await startSessionRig();
  rig.host.mcp.start();
  // Added the way Settings → MCP adds it.
  await rig.ok("mcp.save", {
    id: "files",
    server: { command: process.execPath, args: [filesystemBin()], roots: [notes], approval: "read_only" },
  });
  await waitFor(
    async () => (await rig.ok("mcp.list")).servers[0]?.status === "ready",
    30_000,
    "filesystem ready",
  );
}, 60_000);
afterAll(async () => {
  await rig?.dispose();
  rmSync(notes, { recursive: true, force: true });
});

describe("server-filesystem", () => {
  it("marks read-only tools as allowed and writing tools as asking under approval: read_only", async () => {
    const tools = (await rig.ok("mcp.list")).servers[0].tools;
    expect(tools.find((t: any) => t.name === "read_text_file")).toMatchObject({
      readOnly: true,
      approval: "allow",
    });
    expect(tools.find((t: any) => t.name === "write_file")).toMatchObject({
      readOnly: false,
      approval: "ask",
    });
  });

  it("the chat reads a file inside the root without asking", async () => {
    rig.main.enqueue(
      {
        kind: "tool_calls",
        toolCalls: [
          { id: "r1", name: "mcp__files__read_text_file", arguments: { path: join(notes, "todo.txt") } },
        ],
      },
      "You need oat milk.",
    );
    const { sessionId } = await rig.ok("session.create", { title: "Files" });
    await rig.ok("session.send", { sessionId, text: "What is on my list?" });
    await rig.idle(sessionId);
    expect(rig.events("mcp.approval_required", sessionId)).toEqual([]);
    const tool = (await rig.ok("session.messages", { sessionId })).messages.find(
      (m: any) => m.role === "tool",
    );
    expect(tool.content).toContain("buy oat milk");
  });

  it("answers roots/list from `roots`: the server allows exactly that folder", async () => {
    rig.main.enqueue(
      {
        kind: "tool_calls",
        toolCalls: [{ id: "l1", name: "mcp__files__list_allowed_directories", arguments: {} }],
      },
      "Listed.",
    );
    const { sessionId } = await rig.ok("session.create", { title: "Roots" });
    await rig.ok("session.send", { sessionId, text: "Where may you look?" });
    await rig.idle(sessionId);
    const tool = (await rig.ok("session.messages", { sessionId })).messages.find(
      (m: any) => m.role === "tool",
    );
    expect(tool.content).toContain(notes);
  });

  it("a write asks first, and runs once allowed", async () => {
    const target = join(notes, "new.txt");
    rig.main.enqueue(
      {
        kind: "tool_calls",
        toolCalls: [
          { id: "w1", name: "mcp__files__write_file", arguments: { path: target, content: "hello" } },
        ],
      },
      "Written.",
    );
    const { sessionId } = await rig.ok("session.create", { title: "Write" });
    await rig.ok("session.send", { sessionId, text: "Write a file" });
    const asked = await rig.waitForEvent("mcp.approval_required", (p: any) => p.sessionId === sessionId);
    expect(asked).toMatchObject({ tool: "write_file", annotations: { readOnlyHint: false } });
    await rig.ok("mcp.approve", { requestId: asked.requestId, decision: "once" });
    await rig.idle(sessionId);
    expect(readFileSync(target, "utf8")).toBe("hello");
  });
});
