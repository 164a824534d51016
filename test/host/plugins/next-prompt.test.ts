/* eslint-disable @typescript-eslint/no-explicit-any -- RPC results and event payloads are read as plain JSON here. */
/**
 * The bundled `next-prompt` plugin in a real host (its own folder, copied as a user plugin): after a
 * reply it asks a side question and sends `plugin.next-prompt.suggestion` {text} to the session's
 * clients; nothing without the grant or after a revoke.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { tempHome, waitFor } from "../support/temp-home.js";
import { startSessionRig, type SessionRig } from "../sessions/support/session-rig.js";

const bundled = fileURLToPath(new URL("../../../plugins/next-prompt/", import.meta.url));
type NextPromptModule = { suggestionText(answer: unknown): string | null; PROMPT: string };

let rig: SessionRig;
let temp: { dir: string; cleanup(): void };
let plugin: NextPromptModule;

const suggestions = (sessionId: string) => rig.events("plugin.next-prompt.suggestion", sessionId);

async function reply(sessionId: string, answer: string, suggestion?: string) {
  rig.main.enqueue(answer, ...(suggestion === undefined ? [] : [suggestion]));
  await rig.ok("session.send", { sessionId, text: "Plan my week." });
  await rig.idle(sessionId);
}

beforeAll(async () => {
  plugin = (await import(pathToFileURL(path.join(bundled, "index.js")).href)) as NextPromptModule;
  temp = tempHome("hermes-next-prompt-");
  fs.cpSync(bundled, path.join(temp.dir, "plugins", "next-prompt"), { recursive: true });
  rig = await startSessionRig({ home: temp.dir });
  await rig.host.plugins.ready();
});
afterAll(async () => {
  await rig.dispose();
  temp.cleanup();
});
beforeEach(() => rig.main.reset());

describe("next-prompt", () => {
  it("turns the agent's answer into one chip line", () => {
    expect(plugin.suggestionText('"Book the dentist for Tuesday"\nor maybe not')).toBe(
      "Book the dentist for Tuesday",
    );
    expect(plugin.suggestionText("\n  Next prompt: Draft the email  ")).toBe("Draft the email");
    expect(plugin.suggestionText("x".repeat(400))).toHaveLength(280);
    expect(plugin.suggestionText("  \n ")).toBeNull();
    expect(plugin.suggestionText(null)).toBeNull();
  });

  it("declines: no suggestion after a reply; grants: the suggestion arrives as a session event", async () => {
    await rig.ok("plugins.setEnabled", { id: "next-prompt", enabled: true });
    await rig.waitForEvent("plugin.consent_required", (p) => p.id === "next-prompt");
    await rig.ok("plugins.consent", { id: "next-prompt", grant: [] });
    const { sessionId } = await rig.ok("session.create", { title: "Week" });
    await reply(sessionId, "Here is your week.");
    expect(rig.main.requests).toHaveLength(1);
    expect(suggestions(sessionId)).toEqual([]);

    await rig.ok("plugins.consent", { id: "next-prompt", grant: ["llm.side_question"] });
    await reply(sessionId, "Monday: gym.", '"Move the gym to Tuesday"');
    await waitFor(() => suggestions(sessionId).length > 0, 5000, "the suggestion event");
    expect(suggestions(sessionId)).toEqual([{ text: "Move the gym to Tuesday" }]);
    const side = rig.main.requests.at(-1)!.body as any;
    expect(side.messages.at(-1)).toEqual({ role: "user", content: plugin.PROMPT });
    const { rows } = await rig.ok("session.usage", { sessionId });
    expect(rows.map((r: any) => r.category)).toContain("plugin_side_question:next-prompt");
  });

  it("stops after a revoke", async () => {
    const { sessionId } = await rig.ok("session.create", { title: "Week" });
    await rig.ok("plugins.revoke", { id: "next-prompt", capability: "llm.side_question" });
    await reply(sessionId, "Done.");
    expect(rig.main.requests).toHaveLength(1);
    expect(suggestions(sessionId)).toEqual([]);
  });
});
