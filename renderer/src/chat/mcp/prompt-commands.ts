/**
 * MCP prompts as slash commands (docs/contract.md §13.4): `/<server id>:<prompt>` for each prompt
 * of each ready server, read when the composer shows and again when a server becomes ready.
 */
import { useEffect, useMemo } from "react";
import { useShallow } from "zustand/react/shallow";
import type { McpPromptView } from "../../../../electron/host/rpc/methods/mcp.js";
import { selectMcpServers } from "../../stores/mcp/mcp-servers-store.js";
import type { SlashCommand } from "../../stores/chat/composer-store.js";
import { useMcpCatalog, useMcpServers } from "../../stores/stores-context.js";

export interface McpPromptCommand extends SlashCommand {
  source: { mcpServer: string; prompt: string };
}

export const isMcpPromptCommand = (command: SlashCommand): command is McpPromptCommand =>
  typeof command.source === "object" && "mcpServer" in command.source;

const argsHintOf = (prompt: McpPromptView) =>
  prompt.arguments.map((arg) => (arg.required ? `<${arg.name}>` : `[${arg.name}]`)).join(" ");

export function useMcpPromptCommands(): McpPromptCommand[] {
  const serversLoaded = useMcpServers((s) => s.servers.kind !== "loading");
  const loadServers = useMcpServers((s) => s.load);
  const withPrompts = useMcpServers(
    useShallow((s) =>
      selectMcpServers(s)
        .filter((x) => x.status === "ready" && x.prompts > 0)
        .map((x) => x.id),
    ),
  );
  const prompts = useMcpCatalog((s) => s.prompts);
  const loadPrompts = useMcpCatalog((s) => s.loadPrompts);
  const key = withPrompts.join(",");

  useEffect(() => {
    if (!serversLoaded) void loadServers();
  }, [serversLoaded, loadServers]);
  useEffect(() => {
    void loadPrompts(key ? key.split(",") : []);
  }, [key, loadPrompts]);

  return useMemo(
    () =>
      Object.entries(prompts).flatMap(([server, list]) =>
        list.map((prompt) => ({
          name: `${server}:${prompt.name}`,
          description: prompt.title ?? prompt.description ?? "",
          argsHint: argsHintOf(prompt),
          source: { mcpServer: server, prompt: prompt.name },
        })),
      ),
    [prompts],
  );
}

/** The prompt a draft such as `/files:review` names, when it names one of `commands`. */
export function promptOfDraft(commands: readonly McpPromptCommand[], draft: string): McpPromptCommand | null {
  const match = /^\/([^\s:]+:[^\s]+)\s*$/.exec(draft.trim());
  return match ? (commands.find((c) => c.name === match[1]) ?? null) : null;
}
