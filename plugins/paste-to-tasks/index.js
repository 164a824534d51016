// /paste-to-tasks <notes>: structured extraction with ctx.llm.completeStructured and a JSON Schema.

const TASKS_SCHEMA = {
  type: "object",
  properties: {
    tasks: {
      type: "array",
      items: {
        type: "object",
        properties: {
          owner: { type: "string" },
          action: { type: "string" },
          due: { type: "string", description: "ISO date or empty" },
        },
        required: ["action"],
      },
    },
  },
  required: ["tasks"],
};

/**
 * @param {{owner?: string, action: string, due?: string}[]} tasks
 * @returns {string}
 */
export function formatTasks(tasks) {
  if (tasks.length === 0) return "(no tasks found)";
  return tasks
    .map((task) => {
      const due = task.due ? ` (due ${task.due})` : "";
      return `- [${task.owner || "?"}] ${task.action}${due}`;
    })
    .join("\n");
}

/** @param {import("../sdk/types.js").PluginContext} ctx */
export function register(ctx) {
  ctx.registerCommand({
    name: "paste-to-tasks",
    description: "Turn freeform meeting notes into structured tasks.",
    argsHint: "<notes>",
    handler: async (rawArgs, { sessionId }) => {
      if (!rawArgs.trim()) return "Usage: /paste-to-tasks <meeting notes>";
      try {
        const result = await ctx.llm.completeStructured({
          instructions:
            "Extract concrete action items from these meeting notes. One task per actionable line. " +
            "If no owner is named, leave 'owner' blank.",
          input: [{ type: "text", text: rawArgs }],
          jsonSchema: TASKS_SCHEMA,
          schemaName: "meeting.tasks",
          purpose: "paste-to-tasks",
          temperature: 0,
          maxTokens: 512,
          sessionId,
        });
        if (result.parsed === null) return `Couldn't parse a response. Raw output:\n${result.text}`;
        return formatTasks(
          /** @type {{tasks: {owner?: string, action: string, due?: string}[]}} */ (result.parsed).tasks,
        );
      } catch (error) {
        if (error instanceof Error && error.name === "PluginLlmSchemaError") {
          return `The model's answer did not have the expected shape (${error.message}). Try again.`;
        }
        throw error;
      }
    },
  });
}
