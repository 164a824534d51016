/**
 * Dispatches JSON-RPC requests from any transport through the method table: frame checks, ajv
 * param validation, then the handler. Every failure becomes an error frame with a stable reason.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { isMethodName, methodTable, type MethodName, type ParamsOf, type ResultOf } from "./contract.js";
import { RpcError } from "./errors.js";
import { errorResponse, type ResponseFrame } from "./frames.js";
import { MAX_PARAM_DEPTH, tooDeepAt } from "./param-depth.js";
import { isPluginMethod } from "./plugin-names.js";

/** Who is calling: the transport fills this in; handlers use it for scoping (e.g. gatewaySessionKey). */
export interface CallContext {
  /** Stable id of the window or connection that sent the request. */
  connectionId: string;
}

export type Handler<M extends MethodName> = (params: ParamsOf<M>, ctx: CallContext) => Promise<ResultOf<M>>;
export type HandlerTable = { [M in MethodName]: Handler<M> };

/** Maps an error a service threw to the frame the client sees; returns null for unexpected errors. */
export type ErrorMapper = (err: unknown) => RpcError | null;

/** Answers `plugin.<id>.<method>` (docs/contract.md §8): not in the table, its params are the plugin's own. */
export type PluginCall = (method: string, params: unknown, ctx: CallContext) => Promise<unknown>;

export interface Router {
  handle(frame: unknown, ctx: CallContext): Promise<ResponseFrame | null>;
}

// Our own schemas are checked against the meta-schema by a test, not at every start-up; each
// method's validator is compiled on its first call so start-up compiles none.
let ajv: Ajv | null = null;
const validators = new Map<MethodName, ValidateFunction>();
const validatorFor = (name: MethodName): ValidateFunction => {
  let validate = validators.get(name);
  if (!validate)
    validators.set(
      name,
      (validate = (ajv ??= new Ajv({ allErrors: false, strict: false, validateSchema: false })).compile(
        methodTable[name].params,
      )),
    );
  return validate;
};

/**
 * Compiles these methods' validators ahead of their first call (the host's warm-up does it for the
 * chat's first turn, which would otherwise pay ~10 ms of compiling on its way to the first token).
 */
export function prepareValidators(names: readonly MethodName[]): void {
  for (const name of names) validatorFor(name);
}

/** "params.base_url must be string" — names the field so the caller knows what to fix. */
export function describeParamError(error: ErrorObject): { message: string; key: string } {
  const missing =
    error.keyword === "required" ? (error.params as { missingProperty: string }).missingProperty : "";
  const extra =
    error.keyword === "additionalProperties"
      ? (error.params as { additionalProperty: string }).additionalProperty
      : "";
  const path = error.instancePath.split("/").filter(Boolean).join(".");
  const key = [path, missing || extra].filter(Boolean).join(".");
  const where = key ? `params.${key}` : "params";
  if (missing) return { key, message: `${where} is required` };
  if (extra) return { key, message: `${where} is not a known parameter` };
  if (error.keyword === "enum") {
    const allowed = (error.params as { allowedValues: unknown[] }).allowedValues.join(", ");
    return { key, message: `${where} must be one of ${allowed}` };
  }
  return { key, message: `${where} ${error.message ?? "is invalid"}` };
}

export function createRouter(
  handlers: HandlerTable,
  mapError: ErrorMapper,
  logError: (e: unknown) => void,
  /** Masks secrets in error messages (a provider's answer quoted in a `provider_error`). */
  redact: (text: string) => string = (text) => text,
  pluginCall?: PluginCall,
): Router {
  const fail = errorResponse;

  return {
    async handle(frame, ctx) {
      if (typeof frame !== "object" || frame === null || Array.isArray(frame)) {
        return fail(null, new RpcError("invalid_request", "A request must be a JSON-RPC 2.0 object"));
      }
      const { jsonrpc, id, method, params } = frame as Record<string, unknown>;
      const requestId = typeof id === "string" || typeof id === "number" ? id : null;
      if (jsonrpc !== "2.0" || typeof method !== "string" || requestId === null) {
        return fail(
          requestId,
          new RpcError("invalid_request", 'A request needs jsonrpc "2.0", a string method and an id'),
        );
      }
      const forPlugin = isPluginMethod(method) ? pluginCall : undefined;
      if (!forPlugin && !isMethodName(method)) {
        return fail(requestId, new RpcError("method_not_found", `Unknown method "${method}"`));
      }
      const input = params ?? {};
      const deepAt = tooDeepAt(input);
      if (deepAt !== null) {
        const key = deepAt.split(".")[0] ?? "";
        return fail(
          requestId,
          new RpcError(
            "invalid_params",
            `params.${deepAt.split(".").slice(0, 3).join(".")}… nests deeper than ${MAX_PARAM_DEPTH} levels; send flatter data`,
            { key },
          ),
        );
      }
      const validate = forPlugin ? null : validatorFor(method as MethodName);
      if (validate && !validate(input)) {
        const first = validate.errors?.[0];
        const { message, key } = first
          ? describeParamError(first)
          : { message: "params are invalid", key: "" };
        return fail(requestId, new RpcError("invalid_params", message, { key }));
      }
      try {
        const result = forPlugin
          ? await forPlugin(method, input, ctx)
          : await (handlers[method as MethodName] as (p: unknown, c: CallContext) => Promise<unknown>)(
              input,
              ctx,
            );
        // A plugin's null is its answer; the table's methods answer `{}` for nothing.
        return { jsonrpc: "2.0", id: requestId, result: forPlugin ? result : (result ?? {}) };
      } catch (err) {
        const mapped = err instanceof RpcError ? err : mapError(err);
        if (mapped) return fail(requestId, new RpcError(mapped.reason, redact(mapped.message), mapped.extra));
        logError(err);
        return fail(
          requestId,
          new RpcError("internal_error", "The host hit an unexpected error; details are in logs/agent.log."),
        );
      }
    },
  };
}
