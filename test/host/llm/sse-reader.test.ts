import { APIError } from "openai";
import { describe, expect, it } from "vitest";
import { readChatChunks, SSEChunkParser, type ChatChunk } from "../../../electron/host/llm/sse-reader.js";

const chunk = (content: string): ChatChunk => ({
  id: "c",
  object: "chat.completion.chunk",
  created: 0,
  model: "m",
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
});

/** A response whose body arrives in exactly these reads. */
function responseOf(reads: readonly (string | Uint8Array)[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const read of reads) controller.enqueue(typeof read === "string" ? encoder.encode(read) : read);
      controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

async function collect(response: Response): Promise<ChatChunk[][]> {
  const batches: ChatChunk[][] = [];
  for await (const batch of readChatChunks(response)) batches.push(batch);
  return batches;
}

const contents = (chunks: readonly ChatChunk[]) => chunks.map((c) => c.choices[0]?.delta.content);

describe("SSE chunk reader", () => {
  // Every way the SSE spec lets a provider write the same three events, then [DONE] and what a
  // client must ignore after it.
  const wire =
    ": keep-alive comment\n" +
    `data: ${JSON.stringify(chunk("a"))}\n\n` +
    `data:${JSON.stringify(chunk("b"))}\r\n\r\n` +
    'data: {"id":"c","object":"chat.completion.chunk","created":0,"model":"m",\r' +
    'data: "choices":[{"index":0,"delta":{"content":"c\\n"},"finish_reason":null}]}\r\r' +
    "event: thread.run.step\ndata: {}\n\n" +
    "data: [DONE]\n\n" +
    `data: ${JSON.stringify(chunk("after done"))}\n\n`;

  it("reads every line ending, comment and multi-line event, whatever the pieces' boundaries", () => {
    for (let cut = 0; cut <= wire.length; cut++) {
      for (const second of [cut, Math.min(wire.length, cut + 1), Math.min(wire.length, cut + 7)]) {
        const parser = new SSEChunkParser();
        const got = [
          ...parser.push(wire.slice(0, cut)),
          ...parser.push(wire.slice(cut, second)),
          ...parser.push(wire.slice(second)),
          ...parser.end(),
        ];
        expect(contents(got), `cut at ${cut}/${second}`).toEqual(["a", "b", "c\n"]);
        expect(parser.done).toBe(true);
      }
    }
  });

  it("hands over a read's events together, in order, and keeps a multi-byte character split across reads", async () => {
    const frames = Array.from({ length: 300 }, (_, i) => `data: ${JSON.stringify(chunk(`é${i}✓ `))}\n\n`);
    const bytes = new TextEncoder().encode(frames.join(""));
    // Three reads, the second and third each starting inside a multi-byte character.
    const first = bytes.indexOf(0xc3, 1000) + 1;
    const second = bytes.indexOf(0xe2, 9000) + 1;
    const batches = await collect(
      responseOf([bytes.subarray(0, first), bytes.subarray(first, second), bytes.subarray(second)]),
    );
    expect(batches).toHaveLength(3);
    expect(contents(batches.flat())).toEqual(Array.from({ length: 300 }, (_, i) => `é${i}✓ `));
  });

  it("takes a last event the body ends without its blank line, and never yields an empty batch", async () => {
    const batches = await collect(
      responseOf([": only a comment\n\n", `data: ${JSON.stringify(chunk("last"))}`]),
    );
    expect(batches.map(contents)).toEqual([["last"]]);
  });

  it("raises a provider's mid-stream error frame as the SDK does (an APIError with its body)", async () => {
    const error = { message: "upstream overloaded", code: 502 };
    const reading = collect(
      responseOf([`data: ${JSON.stringify(chunk("so far"))}\n\n`, `data: ${JSON.stringify({ error })}\n\n`]),
    );
    await expect(reading).rejects.toBeInstanceOf(APIError);
    await expect(reading).rejects.toMatchObject({ error, status: undefined });
  });

  it("throws a frame that is not JSON as a SyntaxError (the engine calls it malformed)", async () => {
    await expect(collect(responseOf(['data: {"choices": [unterminated\n\n']))).rejects.toBeInstanceOf(
      SyntaxError,
    );
  });

  it("stops reading the body when the caller leaves early", async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode(`data: ${JSON.stringify(chunk("x"))}\n\n`));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const batch of readChatChunks(new Response(body))) {
      expect(contents(batch)).toEqual(["x"]);
      break;
    }
    expect(cancelled).toBe(true);
  });
});
