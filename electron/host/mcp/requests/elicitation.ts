/**
 * A server's elicitation request (docs/contract.md §13.4): form mode shows a form from the
 * requested schema; `accept` without content sends the schema's defaults, content that fails the
 * schema is refused with `invalid_params` and the request stays open; decline and cancel pass on;
 * a timeout cancels. URL mode carries the URL for an Open button.
 */
import { randomUUID } from "node:crypto";
import { Ajv } from "ajv";
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { RpcError } from "../../rpc/errors.js";
import type { ElicitationAnswer, PendingRequests } from "./pending-requests.js";
import type { McpServerConfig } from "../server-config.js";

export class ElicitationHandler {
  private readonly ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });

  constructor(
    private readonly deps: { pending: PendingRequests; sessionOf: (serverId: string) => string | null },
  ) {}

  async handle(
    config: McpServerConfig,
    params: ElicitRequest["params"],
    signal: AbortSignal,
  ): Promise<ElicitResult> {
    const base = { requestId: randomUUID(), server: config.id, sessionId: this.deps.sessionOf(config.id) };
    if (params.mode === "url") {
      const answer = await this.deps.pending.elicitation(
        { ...base, mode: "url", message: params.message, url: params.url },
        signal,
        config.elicitation.timeoutMs,
        (a) => a,
      );
      return { action: answer.action };
    }
    const schema = params.requestedSchema as Record<string, unknown>;
    const validate = this.ajv.compile(schema);
    const answer = await this.deps.pending.elicitation(
      { ...base, mode: "form", message: params.message, requestedSchema: schema },
      signal,
      config.elicitation.timeoutMs,
      (a: ElicitationAnswer) => {
        if (a.action !== "accept") return a;
        const content = a.content ?? defaultsOf(schema);
        if (!validate(content)) {
          const why = (validate.errors ?? [])
            .map((e) => `${e.instancePath ? `${e.instancePath.slice(1)} ` : ""}${e.message ?? "is invalid"}`)
            .join("; ");
          throw new RpcError("invalid_params", `The answer does not fit the form: ${why}`, {
            key: "content",
          });
        }
        return { action: "accept", content };
      },
    );
    return answer.action === "accept"
      ? { action: "accept", content: (answer.content ?? {}) as ElicitResult["content"] }
      : { action: answer.action };
  }
}

/** The schema's `default` values, property by property. */
export function defaultsOf(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const properties = (schema["properties"] ?? {}) as Record<string, { default?: unknown }>;
  for (const [key, property] of Object.entries(properties)) {
    if (property && property.default !== undefined) out[key] = property.default;
  }
  return out;
}
