/**
 * What ready MCP servers offer the chat (docs/contract.md §13.4): their prompts, kept per server
 * for the composer's slash commands, and on-demand reads of resources, prompts and completion
 * suggestions. The host does the talking; this store only asks it.
 */
import { createStore, type StoreApi } from "zustand/vanilla";
import type {
  McpPromptMessage,
  McpPromptView,
  McpResourceContents,
  McpResourceTemplateView,
  McpResourceView,
} from "../../../../electron/host/rpc/methods/mcp.js";
import type { HermesClient } from "../../api/client.js";

export interface McpCatalogState {
  /** Prompts by server id, for the servers whose prompts were read. */
  prompts: Readonly<Record<string, readonly McpPromptView[]>>;
  /** Reads the prompts of these servers (ready, with prompts) and forgets the others'. */
  loadPrompts(serverIds: readonly string[]): Promise<void>;
  resources(id: string): Promise<{ resources: McpResourceView[]; templates: McpResourceTemplateView[] }>;
  readResource(id: string, uri: string): Promise<McpResourceContents[]>;
  getPrompt(id: string, name: string, args: Record<string, string>): Promise<McpPromptMessage[]>;
  /** Suggestions for a prompt argument; empty when the server offers none or the ask fails. */
  complete(
    id: string,
    prompt: string,
    argument: string,
    value: string,
    context: Record<string, string>,
  ): Promise<string[]>;
}

export function createMcpCatalogStore(client: HermesClient): StoreApi<McpCatalogState> {
  return createStore<McpCatalogState>()((set) => ({
    prompts: {},
    async loadPrompts(serverIds) {
      const entries = await Promise.all(
        serverIds.map(async (id) => {
          try {
            return [id, (await client.call("mcp.prompts", { id })).prompts] as const;
          } catch (err) {
            console.warn(`Couldn't list the prompts of MCP server ${id}`, err);
            return [id, []] as const;
          }
        }),
      );
      set({ prompts: Object.fromEntries(entries) });
    },
    resources: (id) => client.call("mcp.resources", { id }),
    readResource: async (id, uri) => (await client.call("mcp.readResource", { id, uri })).contents,
    getPrompt: async (id, name, args) =>
      (await client.call("mcp.getPrompt", { id, name, arguments: args })).messages,
    async complete(id, prompt, argument, value, context) {
      try {
        const { values } = await client.call("mcp.complete", {
          id,
          ref: { type: "prompt", name: prompt },
          argument: { name: argument, value },
          ...(Object.keys(context).length ? { context } : {}),
        });
        return values;
      } catch {
        return [];
      }
    },
  }));
}
