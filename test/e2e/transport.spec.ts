/**
 * Web mode's transport seen from a script (docs/contract.md §11): the launch token on HTTP and on the `/rpc`
 * handshake, the Origin check, and JSON-RPC error reasons. No browser: raw HTTP and `ws`.
 */
import { request as httpRequest } from "node:http";
import WebSocket from "ws";
import { expect, test } from "./fixtures/app-test.js";
import { rpcUrl } from "./fixtures/rpc-client.js";

interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

/** A bare GET with exactly these headers (fetch would follow redirects and add its own). */
function get(url: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: "GET", headers }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** The HTTP status of a `/rpc` WebSocket handshake: 101 when it opens, else the refusal's status. */
function handshakeStatus(origin: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(rpcUrl(origin), { headers });
    ws.once("open", () => {
      ws.close();
      resolve(101);
    });
    ws.once("unexpected-response", (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once("error", (err) => reject(err));
  });
}

const foreignOrigin = "http://evil.example";

test("without the launch token /api and the /rpc handshake answer 401", async ({ hermes }) => {
  expect((await get(`${hermes.origin}/api/model/auxiliary`)).status).toBe(401);
  const wrong = { Authorization: "Bearer not-the-token" };
  expect((await get(`${hermes.origin}/api/model/auxiliary`, wrong)).status).toBe(401);
  expect((await get(`${hermes.origin}/?token=not-the-token`)).status).toBe(401);
  expect(await handshakeStatus(hermes.origin)).toBe(401);
  expect(await handshakeStatus(hermes.origin, wrong)).toBe(401);
  expect(await handshakeStatus(hermes.origin, { Cookie: `hermes_token=${hermes.token}` })).toBe(401);
});

test("the launch URL serves the page with no cookie and no redirect; the bearer token opens /rpc", async ({
  hermes,
}) => {
  const first = await get(hermes.launchUrl);
  expect(first.status).toBe(200);
  expect(first.headers.location).toBeUndefined();
  expect(first.headers["set-cookie"]).toBeUndefined();
  expect(first.headers["referrer-policy"]).toBe("no-referrer");
  // The shell holds no secret: it is served without the token too (a reload needs no URL token).
  expect((await get(`${hermes.origin}/`)).status).toBe(200);
  expect(await handshakeStatus(hermes.origin, { Authorization: `Bearer ${hermes.token}` })).toBe(101);
  // The app's own origin is welcome.
  expect(
    await handshakeStatus(hermes.origin, { Authorization: `Bearer ${hermes.token}`, Origin: hermes.origin }),
  ).toBe(101);
});

test("a foreign Origin is refused with 403 even with the right token", async ({ hermes }) => {
  const auth = { Authorization: `Bearer ${hermes.token}` };
  expect((await get(`${hermes.origin}/`, { ...auth, Origin: foreignOrigin })).status).toBe(403);
  expect(await handshakeStatus(hermes.origin, { ...auth, Origin: foreignOrigin })).toBe(403);
});

test("JSON-RPC errors carry a stable reason", async ({ hermes }) => {
  const rpc = await hermes.rpc();

  const unknown = await rpc.request("no.such.method", {});
  expect(unknown).toMatchObject({ error: { data: { reason: "method_not_found" } } });

  const badParams = await rpc.request("providers.save", { id: "e2e-no-url", name: "No URL" });
  expect(badParams).toMatchObject({ error: { data: { reason: "invalid_params" } } });

  // Nothing was saved by the refused call.
  const { providers } = await rpc.call<{ providers: { id: string }[] }>("providers.list");
  expect(providers.map((p) => p.id)).not.toContain("e2e-no-url");
});
