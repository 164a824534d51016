/**
 * Slash commands typed in the chat: `/steer text` steers in any mode (docs/contract.md §9.2) and a command a
 * plugin registered runs its handler (docs/contract.md §5.2). Anything else that starts with `/` is an
 * ordinary message for the model.
 */
import type { CommandRegistry, RegisteredCommand } from "../../plugins/registries/command-registry.js";

export type ParsedInput =
  | { kind: "message"; text: string }
  | { kind: "steer"; text: string }
  | { kind: "command"; command: RegisteredCommand; rawArgs: string };

const commandPattern = /^\/([a-z0-9][a-z0-9_-]{0,63})(?:\s+([\s\S]*))?$/;

export function parseChatInput(text: string, commands: CommandRegistry): ParsedInput {
  const match = commandPattern.exec(text.trim());
  if (!match) return { kind: "message", text };
  const name = match[1] as string;
  const rest = (match[2] ?? "").trim();
  if (name === "steer") return { kind: "steer", text: rest };
  const command = commands.get(name);
  return command ? { kind: "command", command, rawArgs: rest } : { kind: "message", text };
}
