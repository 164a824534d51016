/**
 * A plugin's slash command typed in the chat (docs/contract.md §5.2): the exchange is recorded in the
 * transcript (marked `command`, so the model never sees it) and the handler's answer, or its
 * failure in plain words, becomes the reply. It runs beside any turn, never queued behind one.
 * A chat that so far holds only commands is named after its first one (`commandTitle`).
 */
import { randomUUID } from "node:crypto";
import type { AgentLog } from "../../logging/agent-log.js";
import type { RegisteredCommand } from "../../plugins/registries/command-registry.js";
import type { Transcript } from "../turns/transcript.js";
import type { SendResult } from "../turns/turn-types.js";

export interface ChatCommandDeps {
  transcript: Transcript;
  log: AgentLog;
  /** Keeps the handler's work visible to shutdown and tests. */
  track: (work: Promise<unknown>) => void;
  /** Told once the command's reply (or failure) is in the transcript. */
  onAnswered?: (sessionId: string) => void;
}

export interface ChatCommandCall {
  sessionId: string;
  text: string;
  command: RegisteredCommand;
  rawArgs: string;
  gatewaySessionKey: string;
}

export function runChatCommand(deps: ChatCommandDeps, call: ChatCommandCall): SendResult {
  const { sessionId, command, gatewaySessionKey } = call;
  const turnId = randomUUID();
  const meta = { command: command.name, pluginId: command.pluginId };
  deps.transcript.append({ sessionId, turnId, role: "user", content: call.text.trim(), meta });
  const run = Promise.resolve()
    .then(() => command.handler(call.rawArgs, { sessionId, gatewaySessionKey }))
    .then(
      (output) => {
        const content =
          typeof output === "string" ? output : output === undefined ? "" : JSON.stringify(output);
        deps.transcript.append({ sessionId, turnId, role: "assistant", content, meta });
      },
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        // docs/contract.md §5.4: `plugin_timeout` / `plugin_unresponsive` reach the chat as a reason, not only words.
        const reason = (error as { reason?: unknown } | null)?.reason;
        deps.log.write("WARN", "command_failed", {
          plugin: command.pluginId,
          command: command.name,
          error: message,
          ...(typeof reason === "string" && { reason }),
        });
        deps.transcript.append({
          sessionId,
          turnId,
          role: "assistant",
          status: "error",
          meta: {
            ...meta,
            error: `/${command.name} failed: ${message}`,
            ...(typeof reason === "string" && { reason }),
          },
        });
      },
    )
    .then(() => deps.onAnswered?.(sessionId));
  deps.track(run);
  // `command` tells clients no chat turn runs: the reply arrives as a message, beside any turn.
  return { turnId, disposition: "started", command: command.name };
}

/**
 * The title of a chat whose first exchange is a command: the command and the start of its
 * arguments (`tldr: The meeting notes of…`). The title stays `pending`, so the first real exchange
 * still gets a generated title.
 */
export function commandTitle(commandName: string, rawArgs: string, maxLength = 60): string {
  const args = rawArgs.replace(/\s+/g, " ").trim();
  const title = args ? `${commandName}: ${args}` : commandName;
  if (title.length <= maxLength) return title;
  const cut = title.slice(0, maxLength - 1);
  const atWord = cut.lastIndexOf(" ");
  return `${(atWord > 20 ? cut.slice(0, atWord) : cut).replace(/[\s,.;:]+$/u, "")}…`;
}
