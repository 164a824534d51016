/**
 * Seeded frames for the RPC fuzz test: for every method of the contract, params built from its
 * schema and then broken (wrong types, missing, extra, huge, deeply nested), plus unknown methods,
 * odd ids, invalid JSON, binary and oversized frames. Same seed, same frames.
 */
import { methodNames, methodTable } from "../../../../electron/host/rpc/contract.js";
import { seededRandom } from "../../../fixtures/seeded-random.js";

export type FuzzFrame =
  | { kind: "text"; label: string; data: string }
  | { kind: "binary"; label: string; data: Buffer }
  | { kind: "oversized"; label: string; bytes: number };

type Schema = { [key: string]: unknown };

export function createFrameSource(seed: number) {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));

  // No real host names: a fuzzed base URL must never leave the machine or wait on DNS.
  const strings = [
    "",
    " ",
    "x",
    "main",
    "openrouter",
    "constructor",
    "__proto__",
    "toString",
    "hasOwnProperty",
    "prototype",
    "a.b.c",
    "display.busy_input_mode",
    "security.redact_secrets",
    "model.provider",
    "providers.__proto__.x",
    "plugins.entries.tldr.llm",
    "http://127.0.0.1:9/v1",
    "http://[::1",
    "file:///etc/passwd",
    "../../etc/passwd",
    "💥\u0000\uffff",
    "\ud800",
    "queue",
    "steer",
    "interrupt",
    "title_generation",
    "__reset__",
    "auto",
  ];

  /** A marker `request` swaps for JSON text nested this deep (JSON.stringify would overflow first). */
  const nested = (depth: number): string => `\u0001deep:${depth}\u0001`;
  const nestedJson = (depth: number): string => {
    const arrays = random() < 0.5;
    return arrays
      ? `${"[".repeat(depth)}"bottom"${"]".repeat(depth)}`
      : `${'{"n":'.repeat(depth)}"bottom"${"}".repeat(depth)}`;
  };

  const anyValue = (): unknown =>
    pick<() => unknown>([
      () => pick(strings),
      () => int(-5, 5),
      () => pick([0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2]),
      () => random() < 0.5,
      () => null,
      () => [],
      () => ({}),
      () => [pick(strings), int(0, 9)],
      () => ({ [pick(strings)]: pick(strings) }),
    ])();

  /** A value that fits `schema` as far as this small generator understands schemas. */
  const fitting = (schema: Schema, depth = 0): unknown => {
    if (Array.isArray(schema.enum)) return pick(schema.enum);
    const type = Array.isArray(schema.type) ? pick(schema.type as string[]) : schema.type;
    switch (type) {
      case "string":
        return pick(strings);
      case "integer":
        return int(0, 100);
      case "number":
        return random() * 100;
      case "boolean":
        return random() < 0.5;
      case "null":
        return null;
      case "array":
        return depth > 3 ? [] : [fitting((schema.items as Schema) ?? {}, depth + 1)];
      case "object": {
        const props = (schema.properties ?? {}) as Record<string, Schema>;
        const out: Record<string, unknown> = {};
        for (const [key, sub] of Object.entries(props)) {
          if ((schema.required as string[] | undefined)?.includes(key) || random() < 0.5) {
            out[key] = depth > 3 ? anyValue() : fitting(sub, depth + 1);
          }
        }
        return out;
      }
      default:
        return anyValue();
    }
  };

  const wrongType = (value: unknown): unknown =>
    pick<unknown>([
      typeof value === "string" ? 42 : "wrong",
      typeof value === "boolean" ? "true" : true,
      null,
      [],
      { nested: "object" },
      -1,
    ]);

  /** Params for `method`, broken one way (or left fitting). */
  const paramsFor = (method: string): { label: string; params: unknown } => {
    const schema = methodTable[method as keyof typeof methodTable].params as Schema;
    const params = fitting(schema) as Record<string, unknown>;
    const keys = Object.keys((schema.properties ?? {}) as object);
    const key = keys.length ? pick(keys) : "extra";
    switch (pick(["fit", "wrong_type", "missing", "extra", "huge", "deep", "not_object", "absent"])) {
      case "fit":
        return { label: "fitting", params };
      case "wrong_type":
        return { label: "wrong type", params: { ...params, [key]: wrongType(params[key]) } };
      case "missing": {
        const copy = { ...params };
        delete copy[key];
        return { label: "missing", params: copy };
      }
      case "extra":
        return { label: "extra", params: { ...params, [`extra_${int(0, 99)}`]: anyValue() } };
      case "huge":
        return {
          label: "huge",
          params: { ...params, [key]: "h".repeat(pick([10_000, 200_000, 2_000_000])) },
        };
      case "deep":
        return { label: "deep", params: { ...params, [key]: nested(pick([50, 500, 10_000])) } };
      case "not_object":
        return { label: "params not an object", params: pick([[], "params", 7, true]) };
      default:
        return { label: "no params", params: undefined };
    }
  };

  const request = (method: string, params: unknown, id: unknown = int(1, 1_000_000)) =>
    JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) }).replace(
      /"\\u0001deep:(\d+)\\u0001"/g,
      (_m, depth: string) => nestedJson(Number(depth)),
    );

  return {
    next(): FuzzFrame {
      const roll = random();
      if (roll < 0.7) {
        const method = pick(methodNames);
        const { label, params } = paramsFor(method);
        return { kind: "text", label: `${method}: ${label}`, data: request(method, params) };
      }
      if (roll < 0.78) {
        const method = pick([
          "",
          "no.such.method",
          "__proto__",
          "constructor",
          "host.info ",
          "plugin.x.y",
          "a".repeat(5000),
        ]);
        return { kind: "text", label: "unknown method", data: request(method, {}) };
      }
      if (roll < 0.86) {
        const id = pick<unknown>([null, {}, [], true, 1.5, -0, 1e300, "", "id".repeat(2000), [1]]);
        return { kind: "text", label: "odd id", data: request("host.info", {}, id) };
      }
      if (roll < 0.93) {
        const data = pick([
          "",
          "{",
          "not json",
          "null",
          "[]",
          "[1,2]",
          "42",
          '"string"',
          '{"jsonrpc":"1.0","id":1,"method":"host.info"}',
          '{"jsonrpc":"2.0","method":"host.info"}',
          '{"jsonrpc":"2.0","id":1}',
          "[".repeat(100_000),
          `{"jsonrpc":"2.0","id":1,"method":"settings.set","params":{"key":"x","value":${"[".repeat(20_000)}${"]".repeat(20_000)}}}`,
        ]);
        return { kind: "text", label: "invalid JSON-RPC", data };
      }
      const bytes = Buffer.alloc(int(1, 64));
      for (let i = 0; i < bytes.length; i++) bytes[i] = int(0, 255);
      return {
        kind: "binary",
        label: "binary",
        data: random() < 0.5 ? bytes : Buffer.from(request("host.info", {})),
      };
    },
  };
}
