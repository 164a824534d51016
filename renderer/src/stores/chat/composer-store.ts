/**
 * Sending: creates the session for a new chat's first message, sends through `session.send`
 * (the host applies `display.busy_input_mode`; `/steer` always steers), and remembers what
 * happened to the message; plus the slash commands plugins registered, for autocomplete.
 */
import type { SessionImageInput } from "../../../../electron/host/rpc/methods/sessions.js";
import { createStore, type StateCreator, type StoreApi } from "zustand/vanilla";
import type { ResultOf } from "../../../../electron/host/rpc/contract.js";
import type { HermesClient } from "../../api/client.js";
import { describeError, HermesRpcError } from "../../api/rpc-error.js";
import type { SendDisposition } from "./chat-model.js";
import { loading, ready, type Loadable } from "../loadable.js";
import type { SessionsState } from "./session-list-store.js";
import type { TranscriptState } from "./transcript-store.js";

export type PluginCommand = ResultOf<"plugins.commands">["commands"][number];

/** A command the composer offers; the built-in `/steer` first. */
export interface SlashCommand {
  name: string;
  description: string;
  argsHint: string;
  /** An MCP server's prompt (`/<id>:<prompt>`) opens its arguments form instead of being sent. */
  source: "built-in" | { pluginId: string } | { mcpServer: string; prompt: string };
}

export const steerCommand: SlashCommand = {
  name: "steer",
  description: "Guide the reply being written, whatever the busy-input setting says",
  argsHint: "<guidance>",
  source: "built-in",
};

export interface SendingSlice {
  sending: boolean;
  sendError: string | null;
  /** What happened to the last message, when it did not simply start a turn. */
  lastDisposition: { disposition: Exclude<SendDisposition, "started">; turnId: string; at: number } | null;
  /** Resolves true when the host took the message (the caller clears the draft and images). */
  send(text: string, images?: readonly SessionImageInput[]): Promise<boolean>;
  clearSendError(): void;
  /** The note about the last message is over (its turn ran, or another chat opened). */
  clearDisposition(): void;
}

export interface CommandsSlice {
  commands: Loadable<readonly SlashCommand[]>;
  loadCommands(): Promise<void>;
}

export type ComposerState = SendingSlice & CommandsSlice;

type Slice<T> = StateCreator<ComposerState, [], [], T>;

export interface ComposerDeps {
  sessions: StoreApi<SessionsState>;
  transcript: StoreApi<TranscriptState>;
}

const createSendingSlice =
  (client: HermesClient, deps: ComposerDeps): Slice<SendingSlice> =>
  (set, get) => ({
    sending: false,
    sendError: null,
    lastDisposition: null,
    async send(raw, images = []) {
      const text = raw.trim();
      if ((!text && images.length === 0) || get().sending) return false;
      set({ sending: true, sendError: null });
      try {
        let sessionId = deps.sessions.getState().selectedId;
        if (!sessionId) {
          sessionId = await deps.sessions.getState().createForFirstMessage();
          // The transcript opened the new, empty session; nothing to wait for.
        }
        const { turnId, disposition, command } = await client.call("session.send", {
          sessionId,
          text,
          ...(images.length ? { images: [...images] } : {}),
        });
        // A plugin command runs beside the chat: its reply arrives as a message, no turn to wait for.
        if (disposition === "started" && !command)
          deps.transcript.getState().noteTurnStarted(sessionId, turnId);
        set({ lastDisposition: disposition === "started" ? null : { disposition, turnId, at: Date.now() } });
        return true;
      } catch (err) {
        set({ sendError: describeError(err) });
        return false;
      } finally {
        set({ sending: false });
      }
    },
    clearSendError() {
      set({ sendError: null });
    },
    clearDisposition() {
      if (get().lastDisposition) set({ lastDisposition: null });
    },
  });

const createCommandsSlice =
  (client: HermesClient): Slice<CommandsSlice> =>
  (set) => ({
    commands: loading(),
    async loadCommands() {
      try {
        const { commands } = await client.call("plugins.commands", {});
        set({
          commands: ready([
            steerCommand,
            ...commands
              .filter((c) => c.name !== steerCommand.name)
              .map((c) => ({
                name: c.name,
                description: c.description,
                argsHint: c.argsHint ?? "",
                source: { pluginId: c.pluginId },
              })),
          ]),
        });
      } catch (err) {
        // A host without plugin commands still has /steer; anything else is worth logging only.
        if (!(err instanceof HermesRpcError && err.reason === "method_not_found")) {
          console.warn("Couldn't list plugin commands", err);
        }
        set({ commands: ready([steerCommand]) });
      }
    },
  });

export function createComposerStore(client: HermesClient, deps: ComposerDeps): StoreApi<ComposerState> {
  return createStore<ComposerState>()((...a) => ({
    ...createSendingSlice(client, deps)(...a),
    ...createCommandsSlice(client)(...a),
  }));
}

/** Commands whose name starts with what follows the `/`, for the open autocomplete. */
export function matchCommands(commands: readonly SlashCommand[], draft: string): SlashCommand[] {
  const match = /^\/([^\s]*)$/.exec(draft);
  if (!match) return [];
  const prefix = (match[1] ?? "").toLowerCase();
  return commands.filter((c) => c.name.toLowerCase().startsWith(prefix));
}
