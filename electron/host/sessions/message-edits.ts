/**
 * Editing a sent message (as the big chat apps do): the message and every turn after it leave the
 * conversation but stay in the store as a version of a branch point (`meta.archived: {group,
 * version}`); the edited text is sent as the next version (`meta.branch: {group, version}`).
 * `switchVersion` brings an earlier version back (and puts the current one aside). Archived
 * messages never reach the model. Regenerate keeps the replaced reply the same way (`askAgain`).
 */
import { randomUUID } from "node:crypto";
import { SessionBusyError, SessionInputError, SessionNotFoundError } from "./store/session-errors.js";
import type { SessionStore } from "./session-store.js";
import type { Transcript } from "./turns/transcript.js";
import { isCommandExchange, isPending } from "./turns/request-builder.js";
import type { TurnOrigin } from "./turns/turn-types.js";
import type { MessageRecord, SessionRecord } from "./store/types.js";

export interface BranchMark {
  group: string;
  version: number;
}

const markOf = (value: unknown): BranchMark | null => {
  const mark = value as Partial<BranchMark> | null | undefined;
  return mark && typeof mark.group === "string" && typeof mark.version === "number"
    ? { group: mark.group, version: mark.version }
    : null;
};

export const archivedMark = (record: MessageRecord): BranchMark | null => markOf(record.meta.archived);
export const branchMark = (record: MessageRecord): BranchMark | null => markOf(record.meta.branch);
export const isArchived = (record: MessageRecord): boolean => archivedMark(record) !== null;

export interface MessageEditsDeps {
  store: () => SessionStore;
  transcript: Transcript;
  isRunning(sessionId: string): boolean;
  /** Starts a turn on a user message already in the transcript. */
  rerun(session: SessionRecord, turnId: string, text: string, origin: TurnOrigin): void;
}

export class MessageEdits {
  constructor(private readonly deps: MessageEditsDeps) {}

  /** Replaces the message (and what followed it) with the edited text, and answers it. */
  edit(sessionId: string, messageId: string, text: string): { turnId: string } {
    const session = this.idle(sessionId, "edit a message");
    if (!text.trim()) throw new SessionInputError("The edited message is empty; type something to send.");
    const visible = this.visible(sessionId);
    const index = visible.findIndex((m) => m.id === messageId);
    const target = visible[index];
    if (!target || target.role !== "user" || isPending(target) || isCommandExchange(target)) {
      throw new SessionInputError("Only a message you sent to the model can be edited.");
    }
    const current = branchMark(target) ?? { group: target.id, version: 1 };
    const versions = this.versionsOf(sessionId, current.group);
    this.archive(visible.slice(index), current);
    const turnId = randomUUID();
    this.deps.transcript.append({
      sessionId,
      turnId,
      role: "user",
      content: text.trim(),
      meta: {
        disposition: "started",
        origin: "person",
        branch: { group: current.group, version: versions + 1 },
      },
    });
    this.deps.rerun(session, turnId, text.trim(), "person");
    return { turnId };
  }

  /**
   * Regenerate keeps the reply it replaces: the exchange becomes a version of its branch point (as
   * an edit does) and the same message, with its attachments, is asked again as the next version.
   * Returns the new message's turn id; the caller starts the turn.
   */
  askAgain(sessionId: string, user: MessageRecord, replies: readonly MessageRecord[]): string {
    const current = branchMark(user) ?? { group: user.id, version: 1 };
    const versions = this.versionsOf(sessionId, current.group);
    this.archive([user, ...replies], current);
    const turnId = randomUUID();
    const kept = { ...user.meta };
    for (const key of ["branch", "archived", "notSent", "pending"]) delete kept[key];
    this.deps.transcript.append({
      sessionId,
      turnId,
      role: "user",
      content: user.content,
      meta: { ...kept, branch: { group: current.group, version: versions + 1 } },
    });
    return turnId;
  }

  /** Shows another version of a branch point: the current one is put aside, the chosen one comes back. */
  switchVersion(sessionId: string, group: string, version: number): void {
    this.idle(sessionId, "switch versions");
    const visible = this.visible(sessionId);
    const index = visible.findIndex(
      (m) => (branchMark(m) ?? { group: m.id }).group === group && m.role === "user",
    );
    const head = visible[index];
    if (!head) throw new SessionInputError("That message is no longer in this chat.");
    const current = branchMark(head) ?? { group, version: 1 };
    if (current.version === version) return;
    const chosen = this.deps
      .store()
      .listMessages(sessionId)
      .filter((m) => {
        const mark = archivedMark(m);
        return mark?.group === group && mark.version === version;
      });
    if (chosen.length === 0) throw new SessionInputError(`This message has no version ${version}.`);
    this.archive(visible.slice(index), current);
    for (const message of chosen) this.deps.transcript.moveToEnd(message.id, { meta: { archived: null } });
  }

  private archive(messages: readonly MessageRecord[], mark: BranchMark): void {
    const [head, ...rest] = messages;
    if (!head) return;
    const json = { group: mark.group, version: mark.version };
    this.deps.transcript.update(head.id, { meta: { branch: json, archived: json } });
    for (const message of rest) this.deps.transcript.update(message.id, { meta: { archived: json } });
  }

  private versionsOf(sessionId: string, group: string): number {
    let highest = 1;
    for (const m of this.deps.store().listMessages(sessionId)) {
      const mark = branchMark(m) ?? archivedMark(m);
      if (mark?.group === group) highest = Math.max(highest, mark.version);
    }
    return highest;
  }

  private visible(sessionId: string): MessageRecord[] {
    return this.deps
      .store()
      .listMessages(sessionId)
      .filter((m) => !isArchived(m));
  }

  private idle(sessionId: string, what: string): SessionRecord {
    const session = this.deps.store().getSession(sessionId);
    if (!session) throw new SessionNotFoundError(sessionId);
    if (this.deps.isRunning(sessionId)) {
      throw new SessionBusyError(`A reply is being written; stop it or wait, then ${what}.`);
    }
    return session;
  }
}
