/**
 * side_question_prefix's judgement (scripts/bench/request-prefix.mjs): the side question's request
 * must START WITH the turn's request, byte for byte, up to where it appends its message (the end
 * of the turn's top-level `messages`). Prefix plus suffix bytes, as counted before, let an
 * insertion at the start pass.
 */
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the bench scripts, without type declarations.
import { messagesEnd, prefixKept } from "../../../scripts/bench/request-prefix.mjs";

const QUESTION = { role: "user", content: "Bench: what will the user most likely ask next?" };
const appended = Buffer.from(`,${JSON.stringify(QUESTION)}`);
const tools = [{ type: "function", function: { name: "lookup", parameters: { type: "object" } } }];
const messages = [
  { role: "system", content: "You are Hermes. Memory: likes short answers — über kurz." },
  { role: "user", content: "Plan my week." },
  { role: "assistant", content: "Monday: [gym], Tuesday: {rest}" },
];
const body = (request: object) => Buffer.from(JSON.stringify(request));
const turn = body({ model: "bench/model", messages, tools, stream: true });
const side = body({ model: "bench/model", messages: [...messages, QUESTION], tools, stream: true });

interface Kept {
  appendAt: number;
  keptBytes: number;
  share: number;
  startsWith: boolean;
  onlyAppended: boolean | null;
}
const kept = (a: Buffer, b: Buffer, extra?: Buffer) => prefixKept(a, b, extra) as Kept;

describe("side question prefix", () => {
  it("accepts a side question that appends its message to the turn's request", () => {
    const result = kept(turn, side, appended);
    expect(result).toMatchObject({ startsWith: true, onlyAppended: true, share: 100 });
    expect(result.appendAt).toBe(turn.indexOf(Buffer.from(`],"tools"`)));
  });

  it("refuses an insertion at the start, which prefix plus suffix bytes counted as all kept", () => {
    const inserted = Buffer.concat([Buffer.from(`{"user":"x",`), side.subarray(1)]);
    const result = kept(turn, inserted, appended);
    expect(result.startsWith).toBe(false);
    expect(result.onlyAppended).toBe(false);
    expect(result.keptBytes).toBe(2); // `{"`, then "user" where "model" was
    expect(result.share).toBeLessThan(1);
  });

  it("refuses a request whose system prompt changed in the middle, by the byte", () => {
    const changed = Buffer.from(side.toString().replace("über", "uber"));
    const result = kept(turn, changed, appended);
    expect(result.startsWith).toBe(false);
    expect(result.keptBytes).toBe(turn.indexOf(Buffer.from("über")));
  });

  it("refuses a message put before the turn's last one", () => {
    const early = body({
      model: "bench/model",
      messages: [...messages.slice(0, 2), QUESTION, messages[2]],
      tools,
      stream: true,
    });
    expect(kept(turn, early, appended).startsWith).toBe(false);
  });

  it("keeps the prefix but not 'only appended' when the tools after the messages changed", () => {
    const otherTools = body({
      model: "bench/model",
      messages: [...messages, QUESTION],
      tools: [],
      stream: true,
    });
    expect(kept(turn, otherTools, appended)).toMatchObject({ startsWith: true, onlyAppended: false });
  });

  it("finds the top-level messages, not a nested key or a string of that name", () => {
    const tricky = Buffer.from(
      JSON.stringify({
        metadata: { messages: [1, 2] },
        note: '"messages":[ in a string ]',
        messages: [{ role: "user", content: 'a "]" and a \\ backslash' }],
        tools,
      }),
    );
    const end = messagesEnd(tricky) as number;
    expect(tricky.subarray(end, end + 9).toString()).toBe(`],"tools"`);
    expect(messagesEnd(Buffer.from(`{"model":"m","input":"messages"}`))).toBe(-1);
    expect(() => prefixKept(Buffer.from(`{"model":"m"}`), side)).toThrow(
      "the turn's request has no top-level messages array",
    );
  });
});
