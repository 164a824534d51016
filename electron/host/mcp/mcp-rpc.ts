/**
 * The `mcp.*` handlers (docs/contract.md §13.5). Placeholder until the MCP service lands: every
 * method answers that MCP servers are not available yet, so the renderer can be built against the
 * contract meanwhile.
 */
import type { HandlerTable } from "../rpc/router.js";
import { RpcError } from "../rpc/errors.js";
import { mcpMethods } from "../rpc/methods/mcp.js";

type McpHandlers = Pick<HandlerTable, keyof typeof mcpMethods>;

export function mcpHandlers(): McpHandlers {
  const unavailable = async (): Promise<never> => {
    throw new RpcError("internal_error", "MCP servers are not available in this build yet.");
  };
  const handlers = {} as Record<keyof typeof mcpMethods, () => Promise<never>>;
  for (const name of Object.keys(mcpMethods) as (keyof typeof mcpMethods)[]) handlers[name] = unavailable;
  return handlers as unknown as McpHandlers;
}
