// After each reply, asks the session's own agent (a side question, docs/contract.md §7.3) for the user's most
// likely next message and sends it to the chat as `plugin.next-prompt.suggestion` {text}; the app
// shows it as a chip above the message box. Needs the user's consent for llm.side_question.

export const PROMPT =
  "Suggest the user's most likely next message in this conversation: one short line, written as the user would type it. No quotes, no preamble.";
export const MAX_SUGGESTION_CHARS = 280;

/**
 * The chip's text from the agent's answer: its first non-empty line without surrounding quotes or
 * a "Next prompt:"-style label, cut to a chip's length; null when nothing is left.
 * @param {string | null} answer
 * @returns {string | null}
 */
export function suggestionText(answer) {
  if (typeof answer !== "string") return null;
  const line = answer
    .split("\n")
    .map((l) => l.trim())
    .find((l) => l !== "");
  if (!line) return null;
  const text = line
    .replace(/^(suggested|next)?\s*(prompt|message)\s*:\s*/i, "")
    .replace(/^["'“”‘’`]+|["'“”‘’`]+$/g, "")
    .trim();
  if (!text) return null;
  return text.length > MAX_SUGGESTION_CHARS ? `${text.slice(0, MAX_SUGGESTION_CHARS - 1)}…` : text;
}

/** @param {import("../sdk/types.js").PluginContext} ctx */
export function register(ctx) {
  ctx.registerHook("post_llm_call", ({ sessionId, sideQuestionToken }) => {
    if (!sideQuestionToken || !ctx.hasCapability("llm.side_question")) return;
    // Not awaited: hooks are time-bounded and the turn's end must not wait for the model.
    void suggest(ctx, sessionId, sideQuestionToken);
  });
}

/**
 * @param {import("../sdk/types.js").PluginContext} ctx
 * @param {string} sessionId
 * @param {string} token
 */
async function suggest(ctx, sessionId, token) {
  try {
    const text = suggestionText(await ctx.sideQuestion(token, PROMPT, { timeout: 20 }));
    if (text) ctx.emitToSession(sessionId, "suggestion", { text });
  } catch (error) {
    ctx.log.warn("no suggestion", { error: error instanceof Error ? error.message : String(error) });
  }
}
