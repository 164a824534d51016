/**
 * The background review's proposals (docs/contract.md §6.2 `background_review`): a notice in the chat that
 * proposes additions to the Memory note, which the person accepts (optionally edited) or dismisses.
 */
import { method, type EmptyParams } from "../define.js";

const proposal = {
  sessionId: { type: "string", minLength: 1, maxLength: 200 },
  messageId: { type: "string", minLength: 1, maxLength: 200 },
} as const;

export const memoryReviewMethods = {
  /** Appends the proposal's lines (or `additions`, edited) to `memory.note`; answers the new note. */
  "memory.review.accept": method<
    { sessionId: string; messageId: string; additions?: string[] },
    { note: string }
  >({
    type: "object",
    additionalProperties: false,
    required: ["sessionId", "messageId"],
    properties: {
      ...proposal,
      additions: { type: "array", maxItems: 20, items: { type: "string", maxLength: 2000 } },
    },
  }),
  /** Marks the proposal dismissed; the note is left as it is. */
  "memory.review.dismiss": method<{ sessionId: string; messageId: string }, EmptyParams>({
    type: "object",
    additionalProperties: false,
    required: ["sessionId", "messageId"],
    properties: proposal,
  }),
};
