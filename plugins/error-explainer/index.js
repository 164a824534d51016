// A post_tool_call hook: when a tool failed, ask the model for one plain sentence about it and
// return {explanation}; the chat shows it under the tool call.

/**
 * The error text of a failed tool result, or null when the tool succeeded. A result is an error
 * when it is an object with a string `error`, or a string starting with "Error".
 * @param {unknown} result
 * @returns {string | null}
 */
export function errorText(result) {
  if (typeof result === "string") return /^Error\b/.test(result.trim()) ? result.trim() : null;
  if (result && typeof result === "object" && !Array.isArray(result)) {
    const error = /** @type {{error?: unknown}} */ (result).error;
    if (typeof error === "string" && error.trim()) return error.trim();
  }
  return null;
}

/** @param {import("../sdk/types.js").PluginContext} ctx */
export function register(ctx) {
  ctx.registerHook("post_tool_call", async ({ toolName, result, sessionId }) => {
    const error = errorText(result);
    if (error === null) return;
    const reply = await ctx.llm.complete({
      messages: [
        {
          role: "system",
          content:
            "Rewrite the tool error as one short, plain sentence a non-engineer can act on. No preamble.",
        },
        // Errors can quote credentials (URLs, headers): mask them before they leave the machine.
        {
          role: "user",
          content: `Tool: ${toolName}\nError: ${ctx.redact(error.slice(0, 4000), { force: true })}`,
        },
      ],
      maxTokens: 80,
      temperature: 0,
      purpose: "error-explainer",
      sessionId,
    });
    const explanation = reply.text.trim().split("\n")[0]?.trim();
    return explanation ? { explanation } : undefined;
  });
}
