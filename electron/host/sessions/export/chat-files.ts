/** Export a chat (Markdown or JSON with usage) and import a JSON export as a new chat. */
import type { SettingsStore } from "../../config/settings-store.js";
import { chatToJson, chatToMarkdown, parseChatExport } from "./chat-export.js";
import { SessionNotFoundError } from "../store/session-errors.js";
import { snapshotOf } from "../store/tables/session-snapshot.js";
import type { SessionStore } from "../session-store.js";
import type { Transcript } from "../turns/transcript.js";
import type { SessionSnapshot } from "../store/types.js";
import { isUsageCategory } from "../store/tables/usage-ledger.js";

export type ExportFormat = "markdown" | "json";

export interface ChatFilesDeps {
  store: () => SessionStore;
  transcript: Transcript;
  settings: SettingsStore;
}

const count = (value: unknown): number => (typeof value === "number" && value >= 0 ? value : 0);

export class ChatFiles {
  constructor(private readonly deps: ChatFilesDeps) {}

  export(sessionId: string, format: ExportFormat): { filename: string; mimeType: string; content: string } {
    const store = this.deps.store();
    const session = store.getSession(sessionId);
    if (!session) throw new SessionNotFoundError(sessionId);
    const records = store.listMessages(sessionId);
    const base =
      session.title
        .replace(/[^\p{L}\p{N} _-]+/gu, "")
        .trim()
        .slice(0, 60) || "chat";
    if (format === "markdown") {
      return { filename: `${base}.md`, mimeType: "text/markdown", content: chatToMarkdown(session, records) };
    }
    const json = chatToJson(session, records, store.usage(sessionId));
    return {
      filename: `${base}.json`,
      mimeType: "application/json",
      content: `${JSON.stringify(json, null, 2)}\n`,
    };
  }

  import(text: string): { sessionId: string } {
    const chat = parseChatExport(text);
    const settings = this.deps.settings.get();
    const current = snapshotOf(settings);
    // The exported model is kept when its provider is configured here; otherwise the main model.
    const snapshot: SessionSnapshot = {
      ...current,
      mainRoute: settings.providers[chat.model.provider] && chat.model.model ? chat.model : current.mainRoute,
      ...(chat.systemPrompt ? { chatSystemPrompt: chat.systemPrompt } : {}),
    };
    const store = this.deps.store();
    const session = store.createSession({ snapshot, title: chat.title });
    store.transaction(() => {
      for (const m of chat.messages) {
        store.appendMessage({
          sessionId: session.id,
          role: m.role,
          content: m.content,
          status: m.status === "error" || m.status === "stopped" ? m.status : "complete",
          meta: {
            imported: true,
            ...(m.model ? { model: m.model } : {}),
            ...(m.provider ? { provider: m.provider } : {}),
            ...(m.error ? { error: m.error } : {}),
          },
        });
      }
      for (const row of chat.usage) {
        if (!row || typeof row.category !== "string" || !isUsageCategory(row.category)) continue;
        store.addUsage(session.id, {
          category: row.category,
          inputTokens: count(row.inputTokens),
          outputTokens: count(row.outputTokens),
          cacheReadTokens: count(row.cacheReadTokens),
          cacheWriteTokens: count(row.cacheWriteTokens),
          costUsd: typeof row.costUsd === "number" ? row.costUsd : null,
        });
      }
    });
    this.deps.transcript.emit("sessions.changed", null, {});
    return { sessionId: session.id };
  }
}
