/**
 * The shapes the session store reads and writes (docs/contract.md §9.1). Times are epoch milliseconds from
 * the injected clock; ids are UUIDs.
 */
import type { SessionUsageRow } from "../../rpc/methods/sessions.js";

/** The one JSON value type, public in the plugin SDK. */
export type { JsonValue } from "../../../../plugins/sdk/types.js";
import type { JsonValue } from "../../../../plugins/sdk/types.js";

/** Whether the `title_generation` slot has titled the session yet. */
export type TitleState = "pending" | "set" | "failed";

/**
 * The settings a session was created with, frozen so that later edits to `config.yaml` never
 * change an existing conversation. The store keeps it as opaque JSON.
 */
export type SessionSnapshot = {
  mainRoute: { provider: string; model: string };
  /** The full system prompt, memory included. */
  systemPrompt: string;
  prefillMessages: { role: "system" | "user" | "assistant"; content: string }[];
  ephemeralSystemPrompt: string | null;
  /** The chat's own system prompt, set from its header; it goes before the settings' prompt and Memory. */
  chatSystemPrompt?: string;
};

export type SessionSummary = {
  id: string;
  title: string;
  titleState: TitleState;
  createdAt: number;
  updatedAt: number;
  /** Shown at the top of the chat list. */
  pinned: boolean;
};

export type SessionRecord = SessionSummary & { snapshot: SessionSnapshot };

export type NewSession = {
  snapshot: SessionSnapshot;
  /** Defaults to `New chat`, pending a generated title. A given title counts as set. */
  title?: string;
};

export type MessageRole = "user" | "assistant" | "tool" | "system" | "notice";

export type MessageStatus = "complete" | "streaming" | "stopped" | "error" | "interrupted";

/** How a person's message entered a busy session (docs/contract.md §9.2). */
export type MessageDisposition = "started" | "queued" | "steered" | "redirected";

export type ToolCallRecord = { id: string; name: string; arguments: string };

/**
 * Free-form facts about a message. The known keys are typed; anything else must still be JSON.
 * Updates merge into the stored object (JSON merge patch: a `null` value removes a key).
 */
export type MessageMeta = {
  disposition?: MessageDisposition;
  /** The provider (and model) that answered, which may be a fallback (docs/contract.md §9.1). */
  provider?: string;
  model?: string;
  toolCalls?: ToolCallRecord[];
  toolCallId?: string;
  error?: string;
  [key: string]: JsonValue | undefined;
};

export type MessageRecord = {
  id: string;
  sessionId: string;
  /** Null for messages outside any turn (a notice, a prefill). */
  turnId: string | null;
  role: MessageRole;
  content: string;
  status: MessageStatus;
  meta: MessageMeta;
  createdAt: number;
  /** Position within the session, from 0. */
  seq: number;
};

export type NewMessage = {
  sessionId: string;
  turnId?: string | null;
  role: MessageRole;
  content?: string;
  /** Defaults to `complete`; a reply being streamed starts as `streaming`. */
  status?: MessageStatus;
  meta?: MessageMeta;
};

/** A change to meta: keys set to `null` are removed, others replace the stored value. */
export type MessageMetaPatch = { [K in keyof MessageMeta]?: MessageMeta[K] | null };

export type MessagePatch = {
  content?: string;
  status?: MessageStatus;
  /** Merged into the stored meta (JSON merge patch, RFC 7396). */
  meta?: MessageMetaPatch;
};

/** Usage categories of docs/contract.md §9.1; plugin categories carry the plugin id. */
export type UsageCategory =
  | "chat"
  | "title_generation"
  | "compression"
  | "vision"
  | "background_review"
  | `plugin_llm:${string}`
  | `plugin_side_question:${string}`
  | `plugin_fork:${string}`
  | `mcp:${string}`;

export type UsageEntry = {
  category: UsageCategory;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** Null when the provider reported no cost. */
  costUsd: number | null;
};

/** A category's totals: the contract's row (`costUsd` null when no entry reported a cost). */
export type UsageRow = SessionUsageRow;

/** The matching excerpt of a message; `highlights` are [start, end) offsets into `text`. */
export type SearchSnippet = {
  messageId: string;
  text: string;
  highlights: { start: number; end: number }[];
};

export type SearchHit = SessionSummary & {
  /** Null when only the title matched. */
  snippet: SearchSnippet | null;
};
