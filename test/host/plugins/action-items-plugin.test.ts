/* eslint-disable @typescript-eslint/no-explicit-any -- request bodies and plugin state are read as plain JSON here. */
/**
 * The bundled `action-items` plugin: its commitment heuristic, and end to end on a real host —
 * a reply with commitments forks the session, the fork's calls of `record_action_item` land in the
 * plugin's state; a reply without any forks nothing; the live chat cannot call the tool.
 */
import { cpSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { capabilitiesHash } from "../../../electron/host/plugins/capabilities/capabilities.js";
import { tempHome } from "../support/temp-home.js";
import { startSessionRig, type SessionRig } from "../sessions/support/session-rig.js";

const pluginDir = join(import.meta.dirname, "../../../plugins/action-items");

describe("action-items: the commitment heuristic", () => {
  it("fires on explicit markers and on a promise with a time, not on plain answers", async () => {
    const url = pathToFileURL(join(pluginDir, "commitments.js")).href;
    const { hasCommitments } = (await import(url)) as { hasCommitments(reply: unknown): boolean };
    for (const reply of [
      "I'll send you the draft by Friday.",
      "We will review the numbers tomorrow and get back to you.",
      "Next steps:\n1. Book the venue",
      "Action items: update the README.",
      "- [ ] rotate the API keys",
      "You need to renew the certificate by 2026-12-01.",
      "I'm going to check the logs this afternoon.",
    ])
      expect(hasCommitments(reply), reply).toBe(true);
    for (const reply of [
      "Paris is the capital of France.",
      "I'll explain: a monad is a monoid in the category of endofunctors.",
      "Friday is a good day for a walk.",
      "",
      null,
    ])
      expect(hasCommitments(reply), String(reply)).toBe(false);
  });
});

describe("action-items on a real host", () => {
  let rig: SessionRig;
  let home: { dir: string; cleanup(): void };
  let sessionId: string;

  beforeEach(async () => {
    home = tempHome("hermes-action-items-");
    cpSync(pluginDir, join(home.dir, "plugins", "action-items"), { recursive: true });
    rig = await startSessionRig({
      home: home.dir,
      configure: (doc) => {
        doc.plugins = {
          enabled: ["action-items"],
          entries: {
            "action-items": {
              granted_capabilities: ["llm.session_fork"],
              capabilities_consent: {
                hash: capabilitiesHash(["llm.session_fork"]),
                granted_at: "2026-11-29T10:00:00Z",
              },
            },
          },
        };
      },
    });
    await vi.waitFor(
      () => expect(rig.host.plugins.list().find((p) => p.id === "action-items")?.status).toBe("loaded"),
      { timeout: 20_000, interval: 50 },
    );
    // Titled up front: no title request races the fork for the scripted replies.
    ({ sessionId } = await rig.ok("session.create", { title: "Planning" }));
    await rig.ok("session.rename", { sessionId, title: "Planning" });
  }, 30_000);

  afterEach(async () => {
    await rig.dispose();
    home.cleanup();
  });

  const items = (): any[] => {
    const file = join(home.dir, "plugin-data", "action-items", "state.json");
    return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")).items ?? []) : [];
  };

  it("a reply with commitments forks the session, and the fork records them", async () => {
    // The turn's reply, then the fork's two requests: the tool calls, then its final answer.
    rig.main.enqueue(
      "Sounds good. I'll send the report by Friday and book the room tomorrow.",
      {
        kind: "tool_calls",
        toolCalls: [
          {
            name: "record_action_item",
            arguments: { text: "Send the report", owner: "assistant", due: "Friday" },
          },
          {
            name: "record_action_item",
            arguments: { text: "Book the room", owner: "assistant", due: "tomorrow" },
          },
        ],
      },
      "Recorded 2.",
    );
    await rig.ok("session.send", { sessionId, text: "Can you handle the report and the room?" });
    await rig.idle(sessionId);
    const transcriptAfterTurn = rig.host.sessions.messages(sessionId).length;
    await vi.waitFor(() => expect(items()).toHaveLength(2), { timeout: 10_000, interval: 20 });
    expect(await rig.host.sessions.backgroundWork.waitIdle(sessionId, 10_000)).toBe("idle");
    expect(items().map((i) => [i.text, i.owner, i.due, i.done, i.sessionId])).toEqual([
      ["Send the report", "assistant", "Friday", false, sessionId],
      ["Book the room", "assistant", "tomorrow", false, sessionId],
    ]);
    const forkFirst = rig.main.requests.at(-2)!.body as any;
    expect(forkFirst.messages.at(-1).content).toContain("call record_action_item once");
    expect(forkFirst.tools.map((t: any) => t.function.name)).toContain("record_action_item");
    expect(rig.host.sessions.messages(sessionId)).toHaveLength(transcriptAfterTurn);
    const usage = (await rig.ok("session.usage", { sessionId })).rows.map((r: any) => r.category);
    expect(usage).toContain("plugin_fork:action-items");

    // Its RPC methods and session event (docs/contract.md §8): what the card and the page read.
    const changed = () => rig.events("plugin.action-items.items.changed", sessionId);
    expect(changed()).toEqual([{ sessionId }, { sessionId }]);
    const listed = await rig.ok("plugin.action-items.items.list", { session_id: sessionId });
    expect(listed.items.map((i: any) => i.text)).toEqual(["Send the report", "Book the room"]);
    const other = await rig.ok("plugin.action-items.items.list", { sessionId: "elsewhere" });
    expect(other.items).toEqual([]);
    const ticked = await rig.ok("plugin.action-items.items.setDone", { id: listed.items[0].id, done: true });
    expect(ticked.item).toMatchObject({ text: "Send the report", done: true });
    await vi.waitFor(() => expect(items()[0].done).toBe(true));
    expect(changed()).toHaveLength(3);
    const bad = await rig.call("plugin.action-items.items.setDone", { id: "nope", done: true });
    expect(bad.error?.data.reason).toBe("plugin_rpc_failed");
  });

  it("a reply without commitments forks nothing; the live chat cannot record items", async () => {
    rig.main.enqueue("Paris is the capital of France.");
    await rig.ok("session.send", { sessionId, text: "Capital of France?" });
    await rig.idle(sessionId);
    await rig.host.sessions.settled();
    expect(rig.host.sessions.backgroundWork.isBusy(sessionId)).toBe(false);
    const count = rig.main.requests.length;

    rig.main.enqueue(
      { kind: "tool_calls", toolCalls: [{ name: "record_action_item", arguments: { text: "Sneak in" } }] },
      "Done.",
    );
    await rig.ok("session.send", { sessionId, text: "Record something" });
    await rig.idle(sessionId);
    const tool = rig.host.sessions.messages(sessionId).find((m) => m.role === "tool")!;
    expect(tool.content).toContain("only records items from the action-items background pass");
    expect(items()).toEqual([]);
    expect(rig.main.requests.length).toBe(count + 2);
  });
});
