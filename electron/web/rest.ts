/**
 * The REST twins of the model methods (docs/contract.md §11): `GET /api/model/auxiliary` and
 * `POST /api/model/set`, answered through the same router so validation is shared.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { MethodName, ParamsOf } from "../host/rpc/contract.js";
import type { EmptyParams } from "../host/rpc/define.js";
import type { Router } from "../host/rpc/router.js";

const maxBodyBytes = 1024 * 1024;

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
  res.end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes) throw new Error("body too large");
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
}

/**
 * A route names a method of the contract, so a method that does not exist can't compile; only a
 * method whose params are `{}` can be a GET (a GET has no body to carry params).
 */
type RestRoute = {
  [M in MethodName]: {
    httpMethod: EmptyParams extends ParamsOf<M> ? "GET" | "POST" : "POST";
    rpcMethod: M;
  };
}[MethodName];

export const restRoutes = {
  "/api/model/auxiliary": { httpMethod: "GET", rpcMethod: "model.auxiliary.list" },
  "/api/model/set": { httpMethod: "POST", rpcMethod: "model.set" },
} as const satisfies Record<string, RestRoute>;

const routes: Readonly<Record<string, RestRoute>> = restRoutes;

export async function handleRest(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  router: Router,
): Promise<void> {
  const route = routes[url.pathname];
  if (!route) return sendJson(res, 404, { error: `No such endpoint ${url.pathname}` });
  if (req.method !== route.httpMethod) return sendJson(res, 405, { error: `Use ${route.httpMethod}` });
  let params: unknown = {};
  if (route.httpMethod === "POST") {
    try {
      params = await readJson(req);
    } catch {
      return sendJson(res, 400, { error: "The body must be a JSON object" });
    }
  }
  const response = await router.handle(
    { jsonrpc: "2.0", id: 1, method: route.rpcMethod, params },
    { connectionId: "rest" },
  );
  if (!response) return sendJson(res, 500, { error: "No response" });
  if ("error" in response) {
    const reason = response.error.data.reason;
    const status = reason === "method_not_found" ? 404 : reason === "internal_error" ? 500 : 400;
    return sendJson(res, status, { error: response.error.message, reason });
  }
  return sendJson(res, 200, response.result);
}
