/**
 * Session methods (docs/contract.md §11). The names and the fields docs/contract.md lists are public; the extra fields
 * (`status`, `turnId`, `meta`, `seq`, `snippet`) and the methods after `session.usage` are the
 * app's own. Times are epoch milliseconds everywhere in the session API.
 */
import { Type, type Static } from "@sinclair/typebox";
import { method, params, type EmptyParams } from "../define.js";
import { StringEnum } from "../schema-builders.js";
import { BUSY_INPUT_MODES, type BusyInputMode } from "../../config/config-schema.js";

/** What a message may carry (docs/contract.md §9.1); the composer checks these first, the host for sure. */
export const IMAGE_MIME_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_IMAGES_PER_MESSAGE = 4;

/** An image attached to a message, as a client sends it. */
const sessionImageInput = params({
  mimeType: Type.String({ maxLength: 100 }),
  // Base64 of at most ~5 MB plus slack; the host gives the exact size refusal.
  data: Type.String({ maxLength: 8 * 1024 * 1024 }),
  name: Type.Optional(Type.String({ maxLength: 1000 })),
});
export type SessionImageInput = Static<typeof sessionImageInput>;

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

const sessionId = Type.String({ minLength: 1, maxLength: 200 });
const onlySession = params({ sessionId });

export const sessionMethods = {
  "session.create": method(params({ title: Type.Optional(Type.String({ maxLength: 500 })) })).returns<{
    sessionId: string;
  }>(),
  "session.list": method(params({ query: Type.Optional(Type.String({ maxLength: 1000 })) })).returns<{
    sessions: SessionListItem[];
  }>(),
  "session.messages": method(onlySession).returns<{ messages: MessageView[] }>(),
  "session.send": method(
    params({
      sessionId,
      /** May be empty when images go with the message. */
      text: Type.String({ maxLength: 1_000_000 }),
      mode: Type.Optional(StringEnum(BUSY_INPUT_MODES)),
      /** PNG, JPEG, WebP or GIF, base64 (docs/contract.md §9.1); checked by their bytes in the host. */
      images: Type.Optional(Type.Array(sessionImageInput, { maxItems: 8 })),
    }),
  ).returns<{
    turnId: string;
    disposition: "started" | "queued" | "steered" | "redirected";
    /** Set when the text ran a plugin's slash command: no chat turn runs, the reply comes as a message. */
    command?: string;
  }>(),
  "session.stop": method(onlySession).returns<EmptyParams>(),
  "session.delete": method(onlySession).returns<EmptyParams>(),
  "session.usage": method(onlySession).returns<{ rows: SessionUsageRow[] }>(),
  "session.get": method(onlySession).returns<SessionDetails>(),
  "session.rename": method(
    params({ sessionId, title: Type.String({ minLength: 1, maxLength: 500 }) }),
  ).returns<EmptyParams>(),
  "session.regenerate": method(onlySession).returns<{ turnId: string }>(),
  /** Pins a chat to the top of the list (`pinned: false` unpins it). */
  "session.pin": method(params({ sessionId, pinned: Type.Boolean() })).returns<EmptyParams>(),
  /** Switches the chat's model from the next reply on; the transcript records the switch. */
  "session.setModel": method(
    params({
      sessionId,
      provider: Type.String({ minLength: 1, maxLength: 64 }),
      model: Type.String({ minLength: 1, maxLength: 300 }),
    }),
  ).returns<{ model: { provider: string; model: string } }>(),
  /** Replaces a sent message (and what followed it) with edited text and answers it; the old version stays. */
  "session.edit": method(
    params({
      sessionId,
      messageId: Type.String({ minLength: 1, maxLength: 200 }),
      text: Type.String({ minLength: 1, maxLength: 1_000_000 }),
    }),
  ).returns<{ turnId: string }>(),
  /** Shows another version of an edited message (`meta.branch.group`), putting the current one aside. */
  "session.switchVersion": method(
    params({
      sessionId,
      group: Type.String({ minLength: 1, maxLength: 200 }),
      version: Type.Integer({ minimum: 1 }),
    }),
  ).returns<EmptyParams>(),
  /** The chat as a file: Markdown, or JSON with its usage (what `session.import` reads). */
  "session.export": method(params({ sessionId, format: StringEnum(["markdown", "json"]) })).returns<{
    filename: string;
    mimeType: string;
    content: string;
  }>(),
  /** A JSON export (its text) as a new chat. */
  "session.import": method(
    params({ content: Type.String({ minLength: 1, maxLength: 20_000_000 }) }),
  ).returns<{ sessionId: string }>(),
  /** The chat's own system prompt; "" removes it. */
  "session.setSystemPrompt": method(
    params({ sessionId, prompt: Type.String({ maxLength: 20_000 }) }),
  ).returns<{ systemPrompt: string }>(),
};
