/**
 * Messages on the plugin host's Node IPC channel (the `fork` path; Electron's utility process
 * clones messages itself). Node 20's `json` serialization is about three times cheaper per message
 * than `advanced`, which is most of a command's round trip, but JSON cannot say everything a
 * structured clone can. So a message JSON carries exactly goes as it is, and any other one (a
 * `Date`, a `Map`, `undefined` in an object, a `BigInt`, `-0`, an array with holes…) goes as a
 * V8-serialized envelope: the other side sees the same value either way.
 */
import { deserialize, serialize } from "node:v8";

/** A message JSON could not carry exactly, as V8's serializer wrote it. */
export interface V8Envelope {
  kind: "v8";
  data: string;
}

/** Deeper values take the envelope: checking them costs more than it saves. */
const MAX_DEPTH = 32;

function isPlainJson(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0);
    case "object":
      break;
    default:
      return false; // undefined, bigint, symbol, function
  }
  if (value === null) return true;
  if (depth >= MAX_DEPTH) return false;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    // Holes and extra properties survive a structured clone, not JSON.
    if (Object.keys(value).length !== value.length) return false;
    for (let i = 0; i < value.length; i++) {
      if (!(i in value) || !isPlainJson(value[i], depth + 1)) return false;
    }
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false; // Date, Map, Error, typed arrays…
  for (const key of Object.keys(value)) {
    if (!isPlainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

/** What to hand to a `json` IPC channel for `message`. */
export function encodeWire<T>(message: T): T | V8Envelope {
  if (isPlainJson(message, 0)) return message;
  return { kind: "v8", data: serialize(message).toString("base64") };
}

/** The message `encodeWire` was given. */
export function decodeWire<T>(message: T | V8Envelope): T {
  const envelope = message as Partial<V8Envelope> | null;
  if (envelope?.kind === "v8" && typeof envelope.data === "string") {
    return deserialize(Buffer.from(envelope.data, "base64")) as T;
  }
  return message as T;
}
