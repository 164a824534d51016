/**
 * A streaming reply's text as the pieces it arrived in (one per frame), so the renderer can take
 * only what is new. Reading any part of one long growing string makes V8 copy all of it into one
 * flat string first (for a long reply, milliseconds every frame); the pieces are never joined.
 * Each state points at the one before it: appending is O(1) and earlier states stay valid.
 */
export interface StreamedText {
  readonly piece: string;
  readonly before: StreamedText | null;
  /** Length of the whole text up to and including this piece. */
  readonly length: number;
}

export function appendStreamed(text: StreamedText | null, piece: string): StreamedText {
  return { piece, before: text, length: (text?.length ?? 0) + piece.length };
}

/**
 * The pieces `text` has after the earlier state `since` (null: from the start), oldest first; null
 * when `since` is not an earlier state of `text`.
 */
export function piecesSince(text: StreamedText, since: StreamedText | null): string[] | null {
  const pieces: string[] = [];
  let state: StreamedText | null = text;
  while (state !== since) {
    if (state === null) return null;
    pieces.push(state.piece);
    state = state.before;
  }
  return pieces.reverse();
}
