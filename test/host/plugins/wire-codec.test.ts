/**
 * The plugin host's IPC codec (runtime/channel/wire-codec.ts): what JSON carries exactly goes as JSON,
 * everything else a structured clone keeps goes in a V8 envelope, and either way the other side
 * gets the same value after the channel's own JSON round trip.
 */
import { describe, expect, it } from "vitest";
import { decodeWire, encodeWire } from "../../../electron/host/plugins/runtime/channel/wire-codec.js";

/** What a `json` IPC channel does to a message, then the codec's decode. */
const acrossJsonChannel = (message: unknown): unknown =>
  decodeWire(JSON.parse(JSON.stringify(encodeWire(message))) as unknown);

const frame = (value: unknown) => ({
  kind: "frame",
  pluginId: "p",
  frame: { kind: "result", id: 1, ok: true, value },
});

describe("wire codec", () => {
  it("sends plain JSON values as they are", () => {
    const plain = frame({ text: "pong", n: 1.5, list: [1, "two", null, { deep: [true] }], empty: {} });
    expect(encodeWire(plain)).toBe(plain);
    expect(acrossJsonChannel(plain)).toEqual(plain);
    const lone = frame("\ud800 lone surrogate, \n newline, \u2028");
    expect(encodeWire(lone)).toBe(lone);
    expect(acrossJsonChannel(lone)).toEqual(lone);
  });

  it.each([
    ["undefined in an object", { a: undefined, b: 1 }],
    ["undefined as the value", undefined],
    ["a Date", new Date(0)],
    ["a Map and a Set", { m: new Map([["k", 1]]), s: new Set([1, 2]) }],
    ["a BigInt", 10n],
    ["NaN and Infinity", [Number.NaN, Number.POSITIVE_INFINITY]],
    ["-0", -0],
    ["an array with a hole", [1, , 3]], // eslint-disable-line no-sparse-arrays
    ["typed arrays", new Uint8Array([1, 2, 3])],
    ["a RegExp", /x+/g],
  ])("keeps %s exactly (V8 envelope)", (_what, value) => {
    const message = frame(value);
    const wire = encodeWire(message) as { kind: string };
    expect(wire.kind).toBe("v8");
    const back = acrossJsonChannel(message) as ReturnType<typeof frame>;
    expect(back).toStrictEqual(structuredClone(message));
    if (value !== null && typeof value === "object" && !Array.isArray(value) && "a" in value) {
      expect(Object.keys(back.frame.value as object)).toEqual(["a", "b"]); // the key with undefined stays
    }
  });

  it("a message that looks like an envelope but is not one passes through", () => {
    const odd = { kind: "v8", data: 42 };
    expect(decodeWire(odd)).toBe(odd);
  });

  it("very deep values take the envelope instead of a long walk", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 100; i++) deep = { next: deep };
    expect((encodeWire(frame(deep)) as { kind: string }).kind).toBe("v8");
    expect(acrossJsonChannel(frame(deep))).toEqual(frame(deep));
  });
});
