/**
 * The background review's proposals (docs/contract.md §6.2 `background_review`): a notice in the chat that
 * proposes additions to the Memory note, which the person accepts (optionally edited) or dismisses.
 */
import { Type } from "@sinclair/typebox";
import { method, params, type EmptyParams } from "../define.js";

const proposal = {
  sessionId: Type.String({ minLength: 1, maxLength: 200 }),
  messageId: Type.String({ minLength: 1, maxLength: 200 }),
};

export const memoryReviewMethods = {
  /** Appends the proposal's lines (or `additions`, edited) to `memory.note`; answers the new note. */
  "memory.review.accept": method(
    params({
      ...proposal,
      additions: Type.Optional(Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 20 })),
    }),
  ).returns<{ note: string }>(),
  /** Marks the proposal dismissed; the note is left as it is. */
  "memory.review.dismiss": method(params(proposal)).returns<EmptyParams>(),
};
