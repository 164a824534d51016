/**
 * A chat as a file: Markdown to read or share, JSON (with its usage) to keep or bring back with
 * `importChat`. The JSON names its format and version so an import can say what it got wrong.
 * Earlier versions of edited messages and messages still waiting are not part of an export.
 */
import { isArchivedVersion, isPending } from "../turns/request-builder.js";
import { SessionInputError } from "../store/session-errors.js";
import type { MessageRecord, SessionRecord, UsageRow } from "../store/types.js";

export const EXPORT_FORMAT = "hermes-desktop-chat";
export const EXPORT_VERSION = 1;

type ExportedRole = "user" | "assistant" | "notice";
const exportedRoles: ReadonlySet<string> = new Set(["user", "assistant", "notice"]);

export interface ExportedMessage {
  role: ExportedRole;
  content: string;
  createdAt: number;
  status: MessageRecord["status"];
  model?: string;
  provider?: string;
  error?: string;
}

export interface ChatExport {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  title: string;
  createdAt: number;
  model: { provider: string; model: string };
  systemPrompt: string;
  messages: ExportedMessage[];
  usage: UsageRow[];
}

const shownMessages = (records: readonly MessageRecord[]): MessageRecord[] =>
  records.filter((m) => exportedRoles.has(m.role) && !isPending(m) && !isArchivedVersion(m));

export function chatToJson(
  session: SessionRecord,
  records: readonly MessageRecord[],
  usage: UsageRow[],
): ChatExport {
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    title: session.title,
    createdAt: session.createdAt,
    model: { ...session.snapshot.mainRoute },
    systemPrompt: session.snapshot.chatSystemPrompt ?? "",
    messages: shownMessages(records).map((m) => ({
      role: m.role as ExportedRole,
      content: m.content,
      createdAt: m.createdAt,
      status: m.status,
      ...(typeof m.meta.model === "string" ? { model: m.meta.model } : {}),
      ...(typeof m.meta.provider === "string" ? { provider: m.meta.provider } : {}),
      ...(typeof m.meta.error === "string" ? { error: m.meta.error } : {}),
    })),
    usage,
  };
}

export function chatToMarkdown(session: SessionRecord, records: readonly MessageRecord[]): string {
  const parts = [`# ${session.title}`];
  for (const m of shownMessages(records)) {
    if (m.role === "notice") {
      parts.push(`> ${m.content}`);
      continue;
    }
    const who =
      m.role === "user" ? "You" : typeof m.meta.pluginId === "string" ? m.meta.pluginId : "Assistant";
    const error = typeof m.meta.error === "string" ? `\n\n> The reply failed: ${m.meta.error}` : "";
    parts.push(`## ${who}\n\n${m.content}${error}`);
  }
  return `${parts.join("\n\n")}\n`;
}

/** Reads an export back, or says exactly what is wrong with it. */
export function parseChatExport(text: string): ChatExport {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new SessionInputError("The file is not JSON; choose a chat exported as JSON from Hermes Desktop.");
  }
  const doc = data as Partial<ChatExport> | null;
  if (!doc || typeof doc !== "object" || doc.format !== EXPORT_FORMAT) {
    throw new SessionInputError(
      `The file is not a Hermes Desktop chat export ("format" is not "${EXPORT_FORMAT}").`,
    );
  }
  if (doc.version !== EXPORT_VERSION) {
    throw new SessionInputError(
      `The export is version ${String(doc.version)}; this app reads version ${EXPORT_VERSION}.`,
    );
  }
  if (!Array.isArray(doc.messages)) throw new SessionInputError('The export has no "messages" list.');
  doc.messages.forEach((m, i) => {
    if (!m || !exportedRoles.has(m.role) || typeof m.content !== "string") {
      throw new SessionInputError(
        `Message ${i + 1} of the export needs a role (user, assistant or notice) and text content.`,
      );
    }
  });
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    title: typeof doc.title === "string" && doc.title.trim() ? doc.title.trim() : "Imported chat",
    createdAt: typeof doc.createdAt === "number" ? doc.createdAt : Date.now(),
    model: {
      provider: typeof doc.model?.provider === "string" ? doc.model.provider : "",
      model: typeof doc.model?.model === "string" ? doc.model.model : "",
    },
    systemPrompt: typeof doc.systemPrompt === "string" ? doc.systemPrompt : "",
    messages: doc.messages,
    usage: Array.isArray(doc.usage) ? doc.usage : [],
  };
}
