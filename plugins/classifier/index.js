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
      let result;
      try {
        result = await ctx.llm.completeStructured({
          instructions: `Classify the message into exactly one of: ${CATEGORIES.join(", ")}. Give a one-sentence reason.`,
          input: [{ type: "text", text }],
          jsonSchema: schema,
          schemaName: "classification",
          maxTokens: 200,
          purpose: "classify",
          task: "classifier",
          sessionId,
        });
      } catch (err) {
        return friendlyFailure(err);
      }
      if (result.contentType !== "json" || !result.parsed) {
        return `The model did not answer with a category: ${result.text.trim().slice(0, 200)}`;
      }
      const { category, reason } = /** @type {{category: string, reason: string}} */ (result.parsed);
      return `Category: ${category} — ${reason}`;
    },
  });
}

const pinHint = "pin another model to the Classifier task in Settings → Models → Auxiliary";

/** What went wrong, in words a person acts on (no error class names, no schema paths). */
function friendlyFailure(err) {
  const name = String(err?.name ?? "");
  const message = String(err?.message ?? err).replace(/^[A-Za-z]*Error:\s*/, "");
  if (name === "PluginLlmSchemaError" || /did not match schema/.test(message)) {
    return `Couldn't classify this: the model's answer was not one of ${CATEGORIES.join(", ")}. Try again, or ${pinHint}.`;
  }
  if (name === "PluginLlmTimeoutError" || /timed out|timeout/i.test(message)) {
    return `Couldn't classify this: the model took too long to answer. Try again, or ${pinHint}.`;
  }
  return `Couldn't classify this: ${message}`;
}
