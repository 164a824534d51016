/**
 * Tools a chat turn offers beside plugins' (docs/contract.md §13.3: MCP servers' tools). The
 * sessions layer knows only this shape; electron/host/mcp implements it. Forks and side questions
 * never see these tools: only the chat's agent loop asks for them.
 */
import type { ToolCall, ToolDefinition } from "../../llm/chat-request.js";
import type { ToolResultImage } from "../input/image-attachments.js";
import type { JsonValue } from "../store/types.js";

export interface ExternalToolScope {
  sessionId: string;
  gatewaySessionKey: string;
  signal: AbortSignal;
}

export interface ExternalToolRun {
  /** `blocked`: the person denied it; `aborted`: the turn was stopped (nothing is recorded). */
  status: "ok" | "error" | "blocked" | "aborted";
  content: string;
  /** Merged into the tool message's meta (what its card shows: links, state). */
  meta?: Record<string, JsonValue>;
  /** Images of the result (stored as the tool message's `meta.toolImages`), for the card and the model. */
  images?: ToolResultImage[];
}

export interface ExternalTools {
  owns(name: string): boolean;
  /** The definitions sent with the turn's next request (read at each request: servers come and go). */
  definitions(): ToolDefinition[];
  run(call: ToolCall, scope: ExternalToolScope): Promise<ExternalToolRun>;
  /** The person sent a new message: what waits on them for this session is denied. */
  interruptWaiting(sessionId: string): void;
}
