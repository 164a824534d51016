/**
 * The RPC surface under fuzz (issue 13): seeded frames over every method of the contract, sent
 * through web mode's real WebSocket. Every frame must be answered with a reason (or a result),
 * none with `internal_error` (that would be a bug), and the host must still serve afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { methodNames } from "../../../electron/host/rpc/contract.js";
import type { WebServer } from "../../../electron/web/server.js";
import { startWebTestServer, type WebTestServer } from "../support/web-test-server.js";
import { createFrameSource, type FuzzFrame } from "./support/fuzz-frames.js";

// A failing seed can be replayed with HERMES_FUZZ_SEED=<seed>.
const SEED = Number(process.env.HERMES_FUZZ_SEED ?? 0x13_2026);
const FRAMES = 5_000;
const token = "fuzz-test-token-0123456789abcdefghijkl";

let server: WebServer;
let web: WebTestServer | undefined;

beforeAll(async () => {
  web = await startWebTestServer(token, { log: () => undefined });
  ({ server } = web);
});

afterAll(async () => web?.dispose());

interface Answer {
  reason: string;
  message: string;
}

class Connection {
  private waiting: ((answer: Answer) => void) | null = null;
  readonly closed: Promise<number>;

  private constructor(readonly ws: WebSocket) {
    ws.on("message", (data) => {
      const frame = JSON.parse(data.toString()) as {
        method?: string;
        result?: unknown;
        error?: { message: string; data?: { reason?: string } };
      };
      if (frame.method === "event") return;
      const answer = frame.error
        ? { reason: frame.error.data?.reason ?? "(no reason)", message: frame.error.message }
        : { reason: "ok", message: "" };
      const settle = this.waiting;
      this.waiting = null;
      settle?.(answer);
    });
    ws.on("error", () => undefined);
    this.closed = new Promise((resolve) => ws.once("close", (code) => resolve(code)));
  }

  static async open(): Promise<Connection> {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/rpc`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    await new Promise((resolve, reject) => ws.once("open", resolve).once("error", reject));
    return new Connection(ws);
  }

  send(frame: FuzzFrame): Promise<Answer> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve({ reason: "(unanswered)", message: "" }), 15_000);
      this.waiting = (answer) => {
        clearTimeout(timer);
        resolve(answer);
      };
      if (frame.kind === "binary") this.ws.send(frame.data, { binary: true });
      else if (frame.kind === "text") this.ws.send(frame.data);
    });
  }
}

describe("fuzzing the RPC surface", () => {
  it(`answers ${FRAMES} seeded frames over every method with a reason and no internal_error`, async () => {
    const source = createFrameSource(SEED);
    const reasons = new Map<string, number>();
    const internal: string[] = [];
    const unanswered: string[] = [];
    const methodsHit = new Set<string>();
    let connection = await Connection.open();

    for (let i = 0; i < FRAMES; i++) {
      const frame = source.next();
      const method = frame.kind === "text" ? /"method":"([^"]*)"/.exec(frame.data)?.[1] : undefined;
      if (method) methodsHit.add(method);
      const answer = await connection.send(frame);
      reasons.set(answer.reason, (reasons.get(answer.reason) ?? 0) + 1);
      if (answer.reason === "internal_error") internal.push(`${frame.label} → ${answer.message}`);
      if (answer.reason === "(unanswered)" || answer.reason === "(no reason)") unanswered.push(frame.label);
      if (answer.reason !== "ok" && answer.reason !== "(unanswered)") {
        expect(answer.message.length, `${frame.label}: an error says what is wrong`).toBeGreaterThan(10);
      }
    }

    // Oversized frames: that connection is closed with 1009, the next one is served.
    let closedWith1009 = 0;
    for (const mb of [17, 40]) {
      const closed = connection.closed;
      connection.ws.send(Buffer.alloc(mb * 1024 * 1024, 0x20).toString());
      if ((await closed) === 1009) closedWith1009 += 1;
      connection = await Connection.open();
    }

    const info = await connection.send({
      kind: "text",
      label: "after",
      data: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "host.info", params: {} }),
    });
    connection.ws.close();
    const counts = [...reasons].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${r} ${n}`);
    console.log(
      `rpc fuzz (seed ${SEED}): ${FRAMES} frames + 2 oversized over ${methodsHit.size} method names ` +
        `(${methodNames.filter((m) => methodsHit.has(m)).length}/${methodNames.length} of the contract); ` +
        `answers: ${counts.join(", ")}; internal_error ${internal.length}; unanswered ${unanswered.length}; ` +
        `oversized closed with 1009: ${closedWith1009}/2`,
    );
    expect(internal).toEqual([]);
    expect(unanswered).toEqual([]);
    expect(closedWith1009).toBe(2);
    expect(methodNames.filter((m) => !methodsHit.has(m))).toEqual([]);
    expect(info.reason).toBe("ok");
  }, 300_000);
});
