// action-items: after a reply that made commitments (commitments.js decides, without a model
// call), fork the session (ctx.forkSession, needs llm.session_fork) with one tool of its own,
// `record_action_item`; the fork reads the conversation and records each commitment. Items live
// in ctx.state under "items"; `items.list` / `items.setDone` (ctx.registerRpc) read and tick them,
// and `items.changed` (ctx.emitToSession) tells the session's clients to read again.

import { hasCommitments } from "./commitments.js";

const TOOL = "record_action_item";
const PROMPT =
  "Look at the last exchange above. For each concrete commitment, task or follow-up it produced " +
  `(someone will do something, ideally by some time), call ${TOOL} once with a short imperative ` +
  'text, the owner ("user", "assistant" or a name) and the due time as written, if any. Record ' +
  "nothing that is not a commitment and nothing already recorded. Then answer with the number of " +
  "items you recorded.";
const MAX_TEXT = 300;

/** @typedef {{id: string, sessionId: string, text: string, owner: string | null, due: string | null, done: boolean, createdAt: string}} Item */

/** @param {import("../sdk/types.js").PluginContext} ctx */
export function register(ctx) {
  const origin = `plugin_fork:${ctx.pluginId}`;
  /** @returns {Item[]} */
  const items = () => ctx.state.get("items") ?? [];

  ctx.registerTool({
    name: TOOL,
    toolset: "action-items",
    description:
      "Records one action item (a commitment or follow-up from the conversation). Used only by " +
      "the action-items background pass; do not call it in the conversation.",
    parameters: {
      type: "object",
      additionalProperties: false,
      required: ["text"],
      properties: {
        text: { type: "string", description: "What is to be done, as a short imperative." },
        owner: { type: "string", description: 'Who does it: "user", "assistant" or a name.' },
        due: { type: "string", description: "When it is due, as written in the conversation." },
      },
    },
    handler: (args, { sessionId, turnOrigin }) => {
      if (turnOrigin !== origin) {
        return { error: `${TOOL} only records items from the action-items background pass.` };
      }
      const input = /** @type {{text?: unknown, owner?: unknown, due?: unknown}} */ (args ?? {});
      const text = typeof input.text === "string" ? input.text.trim().slice(0, MAX_TEXT) : "";
      if (!text) return { error: "text is required: what is to be done." };
      const all = items();
      const key = text.toLowerCase();
      if (all.some((item) => item.sessionId === sessionId && item.text.toLowerCase() === key)) {
        return { recorded: false, reason: "already recorded" };
      }
      /** @type {Item} */
      const item = {
        id: `${Date.now().toString(36)}-${all.length + 1}`,
        sessionId,
        text,
        owner: typeof input.owner === "string" && input.owner.trim() ? input.owner.trim() : null,
        due: typeof input.due === "string" && input.due.trim() ? input.due.trim() : null,
        done: false,
        createdAt: new Date().toISOString(),
      };
      ctx.state.set("items", [...all, item]);
      ctx.emitToSession(sessionId, "items.changed", { sessionId });
      return { recorded: true, id: item.id };
    },
  });

  // The chat's card and the plugin's page read and tick items through these (docs/contract.md §8).
  ctx.registerRpc("items.list", (params, { sessionId }) => {
    const wanted = typeof params.sessionId === "string" ? params.sessionId : sessionId;
    return { items: wanted ? items().filter((item) => item.sessionId === wanted) : items() };
  });
  ctx.registerRpc("items.setDone", (params) => {
    const { id, done } = params;
    if (typeof id !== "string" || typeof done !== "boolean") {
      throw new Error("items.setDone needs {id: string, done: boolean}.");
    }
    const all = items();
    const item = all.find((entry) => entry.id === id);
    if (!item) throw new Error(`No action item ${id}; it may have been removed.`);
    item.done = done;
    ctx.state.set("items", all);
    ctx.emitToSession(item.sessionId, "items.changed", { sessionId: item.sessionId });
    return { item };
  });

  ctx.registerHook("post_llm_call", ({ sideQuestionToken, reply }) => {
    if (!sideQuestionToken || !hasCommitments(reply)) return;
    // Never wait for the fork inside the hook: start it and let it run in the background.
    void ctx
      .forkSession(sideQuestionToken, PROMPT, { tools: [TOOL], maxIterations: 4, timeout: 120 })
      .then(async (handle) => {
        if (!handle) return;
        await handle.wait();
        ctx.log.info("action-items fork finished", {
          outcome: handle.outcome,
          recorded: handle.actions.length,
        });
      })
      .catch((error) => ctx.log.warn("action-items fork failed", { error: String(error) }));
  });
}
