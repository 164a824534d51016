// side_question_prefix's judgement (SPEC §12): a side question reuses the provider's prompt cache
// only when its request STARTS WITH the turn's request, byte for byte, up to the point where the
// side question appends its own message: the end of the turn's top-level `messages` array. Counting
// common prefix plus common suffix (what this bench did before) passed an insertion at the start.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN = new Set([0x7b, 0x5b]); // { [
const CLOSE = new Set([0x7d, 0x5d]); // } ]
const ARRAY_CLOSE = 0x5d;
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * The byte offset of the `]` that closes the top-level `messages` array of a JSON request body
 * (where an appended message goes, after a comma), or -1 when the body has none.
 * @param {Buffer} body
 */
export function messagesEnd(body) {
  let depth = 0;
  let i = 0;
  const skipString = (at) => {
    let j = at + 1;
    while (j < body.length && body[j] !== QUOTE) j += body[j] === BACKSLASH ? 2 : 1;
    return j; // the closing quote
  };
  while (i < body.length) {
    const byte = body[i];
    if (byte === QUOTE) {
      const end = skipString(i);
      const isMessagesKey = depth === 1 && body.toString("utf8", i + 1, end) === "messages";
      i = end + 1;
      if (!isMessagesKey) continue;
      while (WHITESPACE.has(body[i])) i++;
      if (body[i] !== COLON) continue; // a value "messages", not the key
      i++;
      while (WHITESPACE.has(body[i])) i++;
      if (body[i] !== 0x5b) return -1; // "messages" is not an array
      let inner = 0;
      for (; i < body.length; i++) {
        if (body[i] === QUOTE) i = skipString(i);
        else if (OPEN.has(body[i])) inner++;
        else if (CLOSE.has(body[i]) && --inner === 0) return body[i] === ARRAY_CLOSE ? i : -1;
      }
      return -1;
    }
    if (OPEN.has(byte)) depth++;
    else if (CLOSE.has(byte)) depth--;
    i++;
  }
  return -1;
}

/**
 * How the side question's request `side` keeps the turn's request `turn` (both raw bodies).
 * - `appendAt`: where the side question appends (the end of the turn's `messages`);
 * - `keptBytes`: how many of the turn's bytes before `appendAt` the side request starts with;
 * - `startsWith`: all of them (the figure's condition);
 * - `onlyAppended`: the side request is exactly the turn's with `appended` put at `appendAt`
 *   (the tools and settings after the messages unchanged too), when `appended` is given.
 * @param {Buffer} turn
 * @param {Buffer} side
 * @param {Buffer} [appended] the bytes the side question is expected to add (`,{"role":"user",…}`)
 */
export function prefixKept(turn, side, appended) {
  const appendAt = messagesEnd(turn);
  if (appendAt < 0) throw new Error("the turn's request has no top-level messages array");
  let keptBytes = 0;
  while (keptBytes < appendAt && turn[keptBytes] === side[keptBytes]) keptBytes++;
  const startsWith = keptBytes === appendAt;
  const onlyAppended =
    appended === undefined
      ? null
      : startsWith &&
        Buffer.concat([turn.subarray(0, appendAt), appended, turn.subarray(appendAt)]).equals(side);
  return { appendAt, keptBytes, share: (100 * keptBytes) / appendAt, startsWith, onlyAppended };
}
