/** The `mcp.*` handlers (docs/contract.md §13.5): thin calls into the MCP service. */
import type { HandlerTable } from "../rpc/router.js";
import type { mcpMethods } from "../rpc/methods/mcp.js";
import type { McpHost } from "./mcp-host.js";

type McpHandlers = Pick<HandlerTable, keyof typeof mcpMethods>;

export function mcpHandlers(mcp: McpHost): McpHandlers {
  const { service, pending } = mcp;
  return {
    "mcp.list": () => service.list(),
    "mcp.save": ({ id, server }) => service.save(id, server),
    "mcp.remove": ({ id }) => service.remove(id),
    "mcp.restart": ({ id }) => service.restart(id),
    "mcp.setTool": ({ id, tool, enabled, approval }) =>
      service.setTool(id, tool, {
        ...(enabled !== undefined ? { enabled } : {}),
        ...(approval !== undefined ? { approval } : {}),
      }),
    "mcp.setSecret": ({ id, kind, name, value }) => service.setSecret(id, kind, name, value),
    "mcp.import": ({ json }) => service.import(json),
    "mcp.signIn": ({ id }) => service.signIn(id),
    "mcp.signOut": ({ id }) => service.signOut(id),
    "mcp.approve": async ({ requestId, decision }) => {
      pending.answerApproval(requestId, decision);
      return {};
    },
    "mcp.sampling.respond": async ({ requestId, decision }) => {
      pending.answerSampling(requestId, decision);
      return {};
    },
    "mcp.elicitation.respond": async ({ requestId, action, content }) => {
      pending.answerElicitation(
        requestId,
        action === "accept" ? { action, ...(content ? { content } : {}) } : { action },
      );
      return {};
    },
    "mcp.pending": async ({ sessionId }) => pending.list(sessionId),
    "mcp.resources": ({ id }) => service.resources(id),
    "mcp.readResource": ({ id, uri }) => service.readResource(id, uri),
    "mcp.prompts": ({ id }) => service.prompts(id),
    "mcp.getPrompt": ({ id, name, arguments: args }) => service.getPrompt(id, name, args),
    "mcp.complete": ({ id, ref, argument, context }) => service.complete(id, ref, argument, context),
    "mcp.log": async ({ id }) => service.log(id),
  };
}
