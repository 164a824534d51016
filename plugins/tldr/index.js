// /tldr <text>: one ctx.llm.complete call on the user's active model, no configuration needed.

/** @param {import("../sdk/types.js").PluginContext} ctx */
export function register(ctx) {
  ctx.registerCommand({
    name: "tldr",
    description: "Summarise the supplied text in one paragraph.",
    argsHint: "<text>",
    handler: async (rawArgs, { sessionId }) => {
      const text = rawArgs.trim();
      if (!text) return "Usage: /tldr <text to summarise>";
      const result = await ctx.llm.complete({
        messages: [
          { role: "system", content: "Summarise the user's text in one tight paragraph. No preamble." },
          { role: "user", content: text },
        ],
        maxTokens: 256,
        temperature: 0.3,
        purpose: "tldr",
        sessionId,
      });
      return result.text.trim() || "(the model returned an empty summary)";
    },
  });
}
