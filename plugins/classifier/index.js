// /classify <text>: one structured ctx.llm call on the plugin's own auxiliary slot, `classifier`.
// The slot inherits from the built-in `compression` slot and starts with a 90 s timeout; pin it in
// Settings → Models → Auxiliary to run classification on a small, cheap model.

const CATEGORIES = ["bug report", "question", "feature request", "other"];

const schema = {
  type: "object",
  additionalProperties: false,
  required: ["category", "reason"],
  properties: {
    category: { type: "string", enum: CATEGORIES },
    reason: { type: "string" },
  },
};

/** @param {import("../sdk/types.js").PluginContext} ctx */
export function register(ctx) {
  ctx.registerAuxiliaryTask("classifier", {
    displayName: "Classifier",
    description: "Sorts a message into bug report, question, feature request or other.",
    inheritFrom: "compression",
    defaults: { timeout: 90 },
  });

  ctx.registerCommand({
    name: "classify",
    description: "Sort a message into bug report, question, feature request or other.",
    argsHint: "<text>",
    handler: async (rawArgs, { sessionId }) => {
      const text = rawArgs.trim();
      if (!text) return "Usage: /classify <text to sort>";
      const result = await ctx.llm.completeStructured({
        instructions: `Classify the message into exactly one of: ${CATEGORIES.join(", ")}. Give a one-sentence reason.`,
        input: [{ type: "text", text }],
        jsonSchema: schema,
        schemaName: "classification",
        maxTokens: 200,
        purpose: "classify",
        task: "classifier",
        sessionId,
      });
      if (result.contentType !== "json" || !result.parsed) {
        return `The model did not answer with a category: ${result.text.trim().slice(0, 200)}`;
      }
      const { category, reason } = /** @type {{category: string, reason: string}} */ (result.parsed);
      return `Category: ${category} — ${reason}`;
    },
  });
}
