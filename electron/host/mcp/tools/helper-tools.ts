/**
 * The tools the app adds for a server that offers resources or prompts (docs/contract.md §13.2):
 * `mcp__<id>__list_resources`, `read_resource`, `list_prompts`, `get_prompt`. They are reads:
 * marked read-only, so `approval: read_only` does not ask for them.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";

export type HelperName = "list_resources" | "read_resource" | "list_prompts" | "get_prompt";

const readOnly = { readOnlyHint: true, destructiveHint: false };

const resourceTools: Tool[] = [
  {
    name: "list_resources",
    description: "List the resources this MCP server offers (URI, name, type).",
    inputSchema: { type: "object", properties: {} },
    annotations: readOnly,
  },
  {
    name: "read_resource",
    description: "Read one resource of this MCP server by its URI.",
    inputSchema: { type: "object", properties: { uri: { type: "string" } }, required: ["uri"] },
    annotations: readOnly,
  },
];
const promptTools: Tool[] = [
  {
    name: "list_prompts",
    description: "List the prompts this MCP server offers, with their arguments.",
    inputSchema: { type: "object", properties: {} },
    annotations: readOnly,
  },
  {
    name: "get_prompt",
    description: "Get one prompt of this MCP server, filled with its arguments.",
    inputSchema: {
      type: "object",
      properties: {
        name: { type: "string" },
        arguments: { type: "object", additionalProperties: { type: "string" } },
      },
      required: ["name"],
    },
    annotations: readOnly,
  },
];

/** The helpers a server gets, leaving out any name its own tools already use. */
export function helperTools(
  capabilities: { resources?: unknown; prompts?: unknown },
  own: readonly Tool[],
): Tool[] {
  const taken = new Set(own.map((t) => t.name));
  return [
    ...(capabilities.resources ? resourceTools : []),
    ...(capabilities.prompts ? promptTools : []),
  ].filter((t) => !taken.has(t.name));
}

export const isHelper = (tool: Tool): boolean =>
  [...resourceTools, ...promptTools].some((helper) => helper === tool);

export async function callHelper(
  client: Client,
  name: HelperName,
  args: Record<string, unknown>,
  options: { signal: AbortSignal; timeout: number },
): Promise<CallToolResult> {
  const text = (value: unknown): CallToolResult => ({
    content: [{ type: "text", text: typeof value === "string" ? value : JSON.stringify(value, null, 1) }],
  });
  switch (name) {
    case "list_resources": {
      const { resources } = await client.listResources({}, options);
      return text(
        resources.map(({ uri, name: n, mimeType, description }) => ({ uri, name: n, mimeType, description })),
      );
    }
    case "read_resource": {
      const { contents } = await client.readResource({ uri: String(args["uri"]) }, options);
      return { content: contents.map((resource) => ({ type: "resource" as const, resource })) };
    }
    case "list_prompts": {
      const { prompts } = await client.listPrompts({}, options);
      return text(prompts);
    }
    case "get_prompt": {
      const result = await client.getPrompt(
        { name: String(args["name"]), arguments: (args["arguments"] ?? {}) as Record<string, string> },
        options,
      );
      return {
        content: result.messages.map((m) =>
          m.content.type === "text"
            ? { type: "text" as const, text: `${m.role}: ${m.content.text}` }
            : m.content.type === "resource"
              ? { type: "resource" as const, resource: m.content.resource }
              : { type: "text" as const, text: `${m.role}: [${m.content.type}]` },
        ),
      };
    }
  }
}
