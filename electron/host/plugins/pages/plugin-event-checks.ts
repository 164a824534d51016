/**
 * The checks on `ctx.emitToSession` (docs/contract.md §8), shared by the worker (so the plugin sees the throw
 * where it called) and the host (which never trusts the worker).
 */
import { pluginNameProblem } from "../../rpc/plugin-names.js";
import { isPlainObject, jsonProblem } from "./json-check.js";

export const sessionIdPattern = /^[A-Za-z0-9_.:-]{1,128}$/;

/** An event payload's JSON text may not pass this (a page event, not a file transfer). */
export const MAX_EVENT_PAYLOAD_BYTES = 1024 * 1024;

export class PluginEventError extends Error {
  override readonly name = "PluginEventError";
}

/** Why an emitToSession call can't be delivered, or null. */
export function emitProblem(sessionId: unknown, event: unknown, payload: unknown): string | null {
  if (typeof sessionId !== "string" || !sessionIdPattern.test(sessionId))
    return "the session id must be a session's id (a non-empty string).";
  const eventProblem = pluginNameProblem("event", event);
  if (eventProblem) return eventProblem;
  if (!isPlainObject(payload)) return "the payload must be a plain object, e.g. {job, chart}.";
  const problem = jsonProblem(payload, "the payload");
  if (problem) return `${problem}; send JSON values only.`;
  if (JSON.stringify(payload).length > MAX_EVENT_PAYLOAD_BYTES)
    return `the payload is larger than ${MAX_EVENT_PAYLOAD_BYTES / 1024} KB; send less.`;
  return null;
}
