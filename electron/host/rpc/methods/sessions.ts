/**
 * Session methods (docs/contract.md §11). The names and the fields docs/contract.md lists are public; the extra fields
 * (`status`, `turnId`, `meta`, `seq`, `snippet`) and the methods after `session.usage` are the
 * app's own. Times are epoch milliseconds everywhere in the session API.
 */
import { method, type EmptyParams } from "../define.js";
import { BUSY_INPUT_MODES, type BusyInputMode } from "../../config/config-schema.js";

/** What a message may carry (docs/contract.md §9.1); the composer checks these first, the host for sure. */
export const IMAGE_MIME_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_IMAGES_PER_MESSAGE = 4;

/** An image attached to a message, as a client sends it. */
export type SessionImageInput = { mimeType: string; data: string; name?: string };

/** A transcript message as clients see it. */
export type MessageView = {
  id: string;
  role: "user" | "assistant" | "tool" | "system" | "notice";
  content: string;
  createdAt: number;
  /** `streaming` while written; `stopped`, `error` or `interrupted` (host quit mid-reply) keep the partial text. */
  status: "complete" | "streaming" | "stopped" | "error" | "interrupted";
  turnId: string | null;
  /** Position in the transcript; a queued message moves to the end when its turn starts. */
  seq: number;
  /**
   * Facts about the message: `disposition` (started/queued/steered/redirected), `pending` (waiting
   * for its turn), `provider`/`model`/`fallbackFrom` (who answered), `toolCalls`, `toolCallId`,
   * `toolName`, `toolStatus`, `explanation`, `error`, `command`, `notice`, `steerRanAsTurn`.
   */
  meta: { [key: string]: unknown };
};

export type SessionListItem = {
  sessionId: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  /** Pinned to the top of the list (listed without a query). */
  pinned?: boolean;
  /** With a query: an excerpt of the first matching message (null when only the title matched). */
  snippet?: { messageId: string; text: string; highlights: { start: number; end: number }[] } | null;
};

export type SessionDetails = {
  sessionId: string;
  title: string;
  titleState: "pending" | "set" | "failed";
  createdAt: number;
  updatedAt: number;
  status: "idle" | "running";
  runningTurnId: string | null;
  /** Messages waiting for their turn (queued, redirects, steers not yet taken in). */
  queued: number;
  /** The model the session runs with: as created, or as switched from the chat's header (empty until a main model is set). */
  model: { provider: string; model: string };
  /** The chat's own system prompt ("" when it has none); the Memory note applies besides it. */
  systemPrompt: string;
};

/** `session.send`'s `mode`: the busy-input modes of the settings schema; absent = `display.busy_input_mode`. */
export type SessionSendMode = BusyInputMode;

export interface SessionUsageRow {
  category: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** Null when the provider reported no cost for the category. */
  costUsd: number | null;
}

const sessionId = { type: "string", minLength: 1, maxLength: 200 } as const;
const onlySession = {
  type: "object",
  additionalProperties: false,
  required: ["sessionId"],
  properties: { sessionId },
} as const;

export const sessionMethods = {
  "session.create": method<{ title?: string }, { sessionId: string }>({
    type: "object",
    additionalProperties: false,
    properties: { title: { type: "string", maxLength: 500 } },
  }),
  "session.list": method<{ query?: string }, { sessions: SessionListItem[] }>({
    type: "object",
    additionalProperties: false,
    properties: { query: { type: "string", maxLength: 1000 } },
  }),
  "session.messages": method<{ sessionId: string }, { messages: MessageView[] }>(onlySession),
  "session.send": method<
    {
      sessionId: string;
      /** May be empty when images go with the message. */
      text: string;
      mode?: SessionSendMode;
      /** PNG, JPEG, WebP or GIF, base64 (docs/contract.md §9.1); checked by their bytes in the host. */
      images?: SessionImageInput[];
    },
    {
      turnId: string;
      disposition: "started" | "queued" | "steered" | "redirected";
      /** Set when the text ran a plugin's slash command: no chat turn runs, the reply comes as a message. */
      command?: string;
    }
  >({
    type: "object",
    additionalProperties: false,
    required: ["sessionId", "text"],
    properties: {
      sessionId,
      text: { type: "string", maxLength: 1_000_000 },
      mode: { type: "string", enum: [...BUSY_INPUT_MODES] },
      images: {
        type: "array",
        maxItems: 8,
        items: {
          type: "object",
          additionalProperties: false,
          required: ["mimeType", "data"],
          properties: {
            mimeType: { type: "string", maxLength: 100 },
            // Base64 of at most ~5 MB plus slack; the host gives the exact size refusal.
            data: { type: "string", maxLength: 8 * 1024 * 1024 },
            name: { type: "string", maxLength: 1000 },
          },
        },
      },
    },
  }),
  "session.stop": method<{ sessionId: string }, EmptyParams>(onlySession),
  "session.delete": method<{ sessionId: string }, EmptyParams>(onlySession),
  "session.usage": method<{ sessionId: string }, { rows: SessionUsageRow[] }>(onlySession),
  "session.get": method<{ sessionId: string }, SessionDetails>(onlySession),
  "session.rename": method<{ sessionId: string; title: string }, EmptyParams>({
    type: "object",
    additionalProperties: false,
    required: ["sessionId", "title"],
    properties: { sessionId, title: { type: "string", minLength: 1, maxLength: 500 } },
  }),
  "session.regenerate": method<{ sessionId: string }, { turnId: string }>(onlySession),
  /** Pins a chat to the top of the list (`pinned: false` unpins it). */
  "session.pin": method<{ sessionId: string; pinned: boolean }, EmptyParams>({
    type: "object",
    additionalProperties: false,
    required: ["sessionId", "pinned"],
    properties: { sessionId, pinned: { type: "boolean" } },
  }),
  /** Switches the chat's model from the next reply on; the transcript records the switch. */
  "session.setModel": method<
    { sessionId: string; provider: string; model: string },
    { model: { provider: string; model: string } }
  >({
    type: "object",
    additionalProperties: false,
    required: ["sessionId", "provider", "model"],
    properties: {
      sessionId,
      provider: { type: "string", minLength: 1, maxLength: 64 },
      model: { type: "string", minLength: 1, maxLength: 300 },
    },
  }),
  /** Replaces a sent message (and what followed it) with edited text and answers it; the old version stays. */
  "session.edit": method<{ sessionId: string; messageId: string; text: string }, { turnId: string }>({
    type: "object",
    additionalProperties: false,
    required: ["sessionId", "messageId", "text"],
    properties: {
      sessionId,
      messageId: { type: "string", minLength: 1, maxLength: 200 },
      text: { type: "string", minLength: 1, maxLength: 1_000_000 },
    },
  }),
  /** Shows another version of an edited message (`meta.branch.group`), putting the current one aside. */
  "session.switchVersion": method<{ sessionId: string; group: string; version: number }, EmptyParams>({
    type: "object",
    additionalProperties: false,
    required: ["sessionId", "group", "version"],
    properties: {
      sessionId,
      group: { type: "string", minLength: 1, maxLength: 200 },
      version: { type: "integer", minimum: 1 },
    },
  }),
  /** The chat as a file: Markdown, or JSON with its usage (what `session.import` reads). */
  "session.export": method<
    { sessionId: string; format: "markdown" | "json" },
    { filename: string; mimeType: string; content: string }
  >({
    type: "object",
    additionalProperties: false,
    required: ["sessionId", "format"],
    properties: { sessionId, format: { type: "string", enum: ["markdown", "json"] } },
  }),
  /** A JSON export (its text) as a new chat. */
  "session.import": method<{ content: string }, { sessionId: string }>({
    type: "object",
    additionalProperties: false,
    required: ["content"],
    properties: { content: { type: "string", minLength: 1, maxLength: 20_000_000 } },
  }),
  /** The chat's own system prompt; "" removes it. */
  "session.setSystemPrompt": method<{ sessionId: string; prompt: string }, { systemPrompt: string }>({
    type: "object",
    additionalProperties: false,
    required: ["sessionId", "prompt"],
    properties: { sessionId, prompt: { type: "string", maxLength: 20_000 } },
  }),
};
