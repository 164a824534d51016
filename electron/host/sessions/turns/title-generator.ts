/**
 * Titles a session after its first exchange through the `title_generation` slot (docs/contract.md §9.1).
 * Reasoning tags, quotes and trailing punctuation never reach the title; a failure leaves
 * `New chat` (title state `failed`) and logs why. Usage is billed as `title_generation`.
 */
import type { AuxiliaryCaller } from "../../llm/auxiliary-call.js";
import type { AgentLog } from "../../logging/agent-log.js";
import { isCommandExchange, isNotSent, isPending } from "./request-builder.js";
import type { SessionStore } from "../session-store.js";
import type { Transcript } from "./transcript.js";

export const MAX_TITLE_LENGTH = 60;

const instructions =
  "Write a short title (3 to 6 words) for the conversation below. Answer with the title only: " +
  "no quotes, no trailing punctuation, no explanation.";

/** Cleans what a model answered into a title, or "" when nothing usable is left. */
export function cleanTitle(raw: string): string {
  let text = raw
    .replace(/<(think|thinking|reasoning|reflection)>[\s\S]*?<\/\1>/gi, " ")
    .replace(/<(think|thinking|reasoning|reflection)>[\s\S]*$/gi, " ")
    // Some servers keep the opening tag in the prompt: everything before a lone closing tag is reasoning.
    .replace(/^[\s\S]*<\/(think|thinking|reasoning|reflection)>/i, " ")
    .replace(/<\/?[a-z_]+>/gi, " ");
  const firstLine =
    text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find(Boolean) ?? "";
  text = firstLine
    .replace(/^(title|session title)\s*:\s*/i, "")
    .replace(/[*_`#]+/g, "")
    .replace(/["“”„«»‘‚‹›「」『』]/g, "")
    // A single quote between two letters is an apostrophe ("Don't panic"); anywhere else it quotes.
    .replace(/(?<![\p{L}\p{N}])['’]|['’](?![\p{L}\p{N}])/gu, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[.!?,;:…\s]+$/u, "");
  if (text.length > MAX_TITLE_LENGTH) {
    const cut = text.slice(0, MAX_TITLE_LENGTH + 1);
    const atWord = cut.lastIndexOf(" ");
    text = (atWord > 20 ? cut.slice(0, atWord) : text.slice(0, MAX_TITLE_LENGTH)).replace(
      /[.!?,;:\s]+$/u,
      "",
    );
  }
  return text;
}

export interface TitleGeneratorDeps {
  /** Resolves the slot, fires the auxiliary hooks and bills `title_generation`. */
  auxiliary: AuxiliaryCaller;
  store: () => SessionStore;
  transcript: Transcript;
  log: AgentLog;
}

export class TitleGenerator {
  /** Sessions whose title is being written: a second finished turn must not ask again. */
  private readonly inFlight = new Set<string>();

  constructor(private readonly deps: TitleGeneratorDeps) {}

  /** Titles the session when it still waits for one; never throws. Resolves with the title or null. */
  async generate(sessionId: string, gatewaySessionKey: string): Promise<string | null> {
    if (this.inFlight.has(sessionId)) return null;
    this.inFlight.add(sessionId);
    try {
      return await this.write(sessionId, gatewaySessionKey);
    } finally {
      this.inFlight.delete(sessionId);
    }
  }

  private async write(sessionId: string, gatewaySessionKey: string): Promise<string | null> {
    const { store, transcript, log } = this.deps;
    try {
      const session = store().getSession(sessionId);
      if (!session || session.titleState !== "pending") return null;
      const exchange = store()
        .listMessages(sessionId)
        .filter(
          (m) =>
            (m.role === "user" || m.role === "assistant") &&
            m.content &&
            !isPending(m) &&
            !isNotSent(m) &&
            !isCommandExchange(m),
        )
        .slice(0, 4)
        .map((m) => `${m.role === "user" ? "User" : "Assistant"}: ${m.content.slice(0, 2_000)}`)
        .join("\n\n");
      const outcome = await this.deps.auxiliary.complete(
        { task: "title_generation", sessionId, gatewaySessionKey },
        {
          messages: [
            { role: "system", content: instructions },
            { role: "user", content: exchange },
          ],
          max_tokens: 64,
          temperature: 0.3,
        },
      );
      const title = cleanTitle(outcome.text);
      if (!title) throw new Error("the model answered no usable title");
      // A person may have renamed the chat while the title was being written: theirs wins.
      if (store().getSession(sessionId)?.titleState !== "pending") return null;
      store().renameSession(sessionId, title, "set");
      transcript.emit("session.title", sessionId, { title });
      transcript.emit("sessions.changed", null, {});
      return title;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      log.write("WARN", "title_generation_failed", { session: sessionId, error: reason });
      try {
        if (store().getSession(sessionId)?.titleState === "pending")
          store().setTitleState(sessionId, "failed");
      } catch {
        // The session is gone or the store is failing; the log line says why.
      }
      return null;
    }
  }
}
