/**
 * A person's explicit changes to what one chat runs with, made from its header: the model (docs/contract.md
 * §9.1 freezes a session's route, so a switch is a recorded change, shown in the transcript) and
 * the chat's own system prompt (it goes before the settings' prompt and the Memory note).
 */
import type { SettingsStore } from "../config/settings-store.js";
import { SessionBusyError, SessionInputError, SessionNotFoundError } from "./store/session-errors.js";
import type { SessionStore } from "./session-store.js";
import type { Transcript } from "./turns/transcript.js";
import type { SessionRecord, SessionSnapshot } from "./store/types.js";

export const MAX_CHAT_SYSTEM_PROMPT = 20_000;

export interface SessionOverridesDeps {
  store: () => SessionStore;
  transcript: Transcript;
  settings: SettingsStore;
  isRunning(sessionId: string): boolean;
  /** Told the new record, so caches of the session's snapshot follow. */
  changed(session: SessionRecord): void;
}

export class SessionOverrides {
  constructor(private readonly deps: SessionOverridesDeps) {}

  setModel(sessionId: string, provider: string, model: string): { provider: string; model: string } {
    const session = this.editable(sessionId, "switch its model");
    const config = this.deps.settings.get().providers[provider];
    if (!config) {
      throw new SessionInputError(`No provider "${provider}"; add it in Settings → Providers first.`);
    }
    const modelId = model.trim();
    if (!modelId) throw new SessionInputError("Name the model to switch to, e.g. vendor/model-id.");
    const current = session.snapshot.mainRoute;
    if (current.provider === provider && current.model === modelId) return { ...current };
    this.save(session, { ...session.snapshot, mainRoute: { provider, model: modelId } });
    this.deps.transcript.append({
      sessionId,
      role: "notice",
      content: `Model for this chat: ${modelId} (${config.name}), from the next reply on.`,
      meta: { notice: "model_switch", provider, model: modelId, from: { ...current } },
    });
    return { provider, model: modelId };
  }

  setSystemPrompt(sessionId: string, prompt: string): { systemPrompt: string } {
    const session = this.editable(sessionId, "change its system prompt");
    const text = prompt.trim();
    if (text.length > MAX_CHAT_SYSTEM_PROMPT) {
      throw new SessionInputError(
        `The system prompt is ${text.length} characters; keep it under ${MAX_CHAT_SYSTEM_PROMPT}.`,
      );
    }
    if ((session.snapshot.chatSystemPrompt ?? "") === text) return { systemPrompt: text };
    const snapshot: SessionSnapshot = { ...session.snapshot };
    if (text) snapshot.chatSystemPrompt = text;
    else delete snapshot.chatSystemPrompt;
    this.save(session, snapshot);
    this.deps.transcript.append({
      sessionId,
      role: "notice",
      content: text ? "This chat's system prompt was set." : "This chat's system prompt was removed.",
      meta: { notice: "system_prompt" },
    });
    return { systemPrompt: text };
  }

  private editable(sessionId: string, what: string): SessionRecord {
    const session = this.deps.store().getSession(sessionId);
    if (!session) throw new SessionNotFoundError(sessionId);
    if (this.deps.isRunning(sessionId)) {
      throw new SessionBusyError(`A reply is being written; stop it or wait, then ${what}.`);
    }
    return session;
  }

  private save(session: SessionRecord, snapshot: SessionSnapshot): void {
    this.deps.store().setSnapshot(session.id, snapshot);
    this.deps.changed({ ...session, snapshot });
  }
}
