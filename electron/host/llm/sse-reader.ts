/**
 * Reads a streamed chat completion's body (Server-Sent Events) into its chunks, a batch per
 * network read. Why not the SDK's `Stream`: openai 6.x copies the rest of its byte buffer once per
 * event (`data.slice(patternIndex)`), so a read holding K events costs O(K × read size), and every
 * event then passes three async generators; at a fast provider's rate (hundreds of events a read)
 * that was most of the host's CPU for a streamed reply. Here a read is decoded once, split into
 * lines by index, and its events are handed over together. Semantics are the SDK's (and the SSE
 * spec's): lines end in CR, LF or CRLF; `data:` lines of one event join with LF; a blank line ends
 * the event; `:` starts a comment; `[DONE]` ends the stream's data; an event whose JSON carries
 * `error` is the provider breaking off (an `APIError`, as the SDK raises it).
 */
import { APIError } from "openai";
import type OpenAI from "openai";

export type ChatChunk = OpenAI.Chat.Completions.ChatCompletionChunk;

/** Splits SSE text into events as it arrives, whatever the pieces' boundaries. */
export class SSEChunkParser {
  private rest = "";
  /** The last piece ended in CR: an LF opening the next one belongs to that line ending. */
  private afterCR = false;
  private event: string | null = null;
  private data: string[] = [];
  /** `[DONE]` came: whatever follows is ignored (as the SDK does). */
  done = false;

  constructor(private readonly headers?: Headers) {}

  /** Adds decoded text; returns the chunks of the events it completed, in order. */
  push(piece: string): ChatChunk[] {
    const out: ChatChunk[] = [];
    const text = this.rest + piece;
    this.rest = "";
    let at = 0;
    if (this.afterCR && text.charCodeAt(0) === 10) at = 1;
    this.afterCR = false;
    const end = text.length;
    // Each kind of line ending is searched for again only once passed: providers send LF alone,
    // and searching for a CR from every line would scan to the end of the text each time.
    let lf = -2;
    let cr = -2;
    while (at < end) {
      if (lf !== -1 && lf < at) lf = text.indexOf("\n", at);
      if (cr !== -1 && cr < at) cr = text.indexOf("\r", at);
      const stop = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (stop === -1) break;
      this.line(text.slice(at, stop), out);
      if (stop === cr && stop === end - 1) this.afterCR = true;
      at = stop === cr && text.charCodeAt(stop + 1) === 10 ? stop + 2 : stop + 1;
    }
    if (at < end) this.rest = text.slice(at);
    return out;
  }

  /** The body ended: a last line without its ending counts, and an event without its blank line. */
  end(): ChatChunk[] {
    const out: ChatChunk[] = [];
    if (this.rest) this.line(this.rest, out);
    this.rest = "";
    this.line("", out);
    return out;
  }

  private line(line: string, out: ChatChunk[]): void {
    if (line === "") {
      if (this.event === null && this.data.length === 0) return;
      const data = this.data.length === 1 ? this.data[0]! : this.data.join("\n");
      const event = this.event;
      this.event = null;
      this.data = [];
      this.dispatch(event, data, out);
      return;
    }
    if (line.charCodeAt(0) === 58 /* ":" */) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
  }

  private dispatch(event: string | null, data: string, out: ChatChunk[]): void {
    if (this.done) return;
    if (data.startsWith("[DONE]")) {
      this.done = true;
      return;
    }
    // Assistants-API events are no chat chunks (the SDK hands them over apart; nobody asks here).
    if (event !== null && event.startsWith("thread.")) return;
    // A JSON parse error is thrown as is: the engine names it "not valid OpenAI-format data".
    const parsed = JSON.parse(data) as (ChatChunk & { error?: unknown }) | null;
    if (parsed && parsed.error)
      throw new APIError(undefined, parsed.error as object, undefined, this.headers);
    out.push(parsed as ChatChunk);
  }
}

/**
 * The chunks of a streamed response, a batch per network read (never an empty batch). Leaving the
 * loop early cancels the body; an abort of the request ends it with the fetch's AbortError.
 * `seen.done` is set once the stream's `[DONE]` came (a body cut short never says it).
 */
export async function* readChatChunks(
  response: Response,
  seen: { done: boolean } = { done: false },
): AsyncGenerator<ChatChunk[]> {
  if (!response.body) throw new TypeError("the provider's streamed response has no body");
  const parser = new SSEChunkParser(response.headers);
  const decoder = new TextDecoder();
  for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
    const batch = parser.push(decoder.decode(bytes, { stream: true }));
    seen.done = parser.done;
    if (batch.length) yield batch;
  }
  const last = parser.push(decoder.decode());
  last.push(...parser.end());
  seen.done = parser.done;
  if (last.length) yield last;
}
