/**
 * The side-question lease (docs/contract.md §7.3): one token per person turn, shared by every plugin, backing
 * one `ctx.sideQuestion` or `ctx.forkSession` call. It is issued only when at least one loaded
 * plugin holds `llm.side_question` or `llm.session_fork`; the first call that passes the
 * capability check spends it, whatever happens next; it expires 60 s after the turn and as soon
 * as the session's next turn starts. The lease also keeps what the turn sent (route and request
 * body, frozen) so a side question or a fork can replay it byte for byte, and the session's route
 * at the turn, so a model switch since then is detectable.
 *
 * Tokens are `sq1.<registry>.<lease>.<mac>`: the registry id tells a token of another host run
 * (foreign) from one of ours, the HMAC tells a made-up one (forged) from one we issued.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Clock } from "../../clock.js";
import type { ChatBody } from "../../llm/chat-request.js";
import type { Route } from "../../llm/route.js";

export const LEASE_TTL_MS = 60_000;

/** The two capabilities a lease backs. */
export type LeaseCapability = "llm.side_question" | "llm.session_fork";

/** What the turn sent to the provider: the route that answered and the body, never changed after. */
export interface TurnRequest {
  route: Readonly<Route>;
  body: Readonly<ChatBody>;
}

/** Identity of a route for "did the model change since the turn" (provider, endpoint, model). */
export interface RouteIdentity {
  providerId: string;
  baseURL: string;
  model: string;
}

export interface Lease {
  readonly token: string;
  readonly sessionId: string;
  readonly turnId: string;
  readonly gatewaySessionKey: string;
  readonly issuedAt: number;
  readonly expiresAt: number;
  /** The turn's final request, for a byte-for-byte replay. */
  readonly request: TurnRequest;
  /** The session's primary route when the turn ran (before any fallback). */
  readonly turnRoute: RouteIdentity;
}

/** Why a token was refused. `no_capability` never spends it; the others had nothing to spend. */
export type LeaseRefusal =
  "no_capability" | "malformed" | "forged" | "foreign" | "expired" | "spent" | "superseded";

export type LeaseCheck = { ok: true; lease: Lease } | { ok: false; reason: LeaseRefusal };

export interface IssueRequest {
  sessionId: string;
  turnId: string;
  gatewaySessionKey: string;
  /** Only person turns get a token; injected (plugin) turns are unattended. */
  attended: boolean;
  request: TurnRequest;
  turnRoute: RouteIdentity;
}

export interface SideQuestionLeaseDeps {
  clock: Clock;
  /** Whether any loaded plugin holds `llm.side_question` or `llm.session_fork` now. */
  anyHolder(): boolean;
  /** Whether this plugin holds the capability now (grants are read at each use). */
  holds(pluginId: string, capability: LeaseCapability): boolean;
  ttlMs?: number;
}

/**
 * A live lease keeps the turn's request for the replay; once spent or superseded only what a
 * refusal needs is kept, so the table does not hold a copy of every recent conversation.
 */
type LeaseRecord =
  { state: "live"; lease: Lease } | { state: "spent" | "superseded"; sessionId: string; expiresAt: number };

const TOKEN_PATTERN = /^sq1\.([0-9a-f]{16})\.([0-9a-f]{24})\.([0-9a-f]{64})$/;

export function routeIdentity(route: Pick<Route, "providerId" | "baseURL" | "model">): RouteIdentity {
  return { providerId: route.providerId, baseURL: route.baseURL, model: route.model };
}

export function sameRoute(a: RouteIdentity, b: RouteIdentity): boolean {
  return a.providerId === b.providerId && a.baseURL === b.baseURL && a.model === b.model;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

export class SideQuestionLeases {
  private readonly registryId = randomBytes(8).toString("hex");
  private readonly secret = randomBytes(32);
  private readonly leases = new Map<string, LeaseRecord>();
  /** The live lease of each session (at most one). */
  private readonly bySession = new Map<string, string>();
  private readonly turnListeners = new Set<(sessionId: string) => void>();
  private readonly ttlMs: number;

  constructor(private readonly deps: SideQuestionLeaseDeps) {
    this.ttlMs = deps.ttlMs ?? LEASE_TTL_MS;
  }

  /**
   * The session's next turn starts: its live token expires now (docs/contract.md §7.3), and listeners (forks
   * waiting to be cancelled) are told.
   */
  turnStarted(sessionId: string): void {
    this.supersede(sessionId);
    for (const listener of this.turnListeners) {
      try {
        listener(sessionId);
      } catch {
        // A listener's failure must not hold up the turn.
      }
    }
  }

  /** Called at every turn start of any session; returns the unsubscribe. */
  onTurnStarted(listener: (sessionId: string) => void): () => void {
    this.turnListeners.add(listener);
    return () => this.turnListeners.delete(listener);
  }

  /**
   * The token for `post_llm_call`, or null: an unattended turn, or no loaded plugin holding
   * either capability. A new token supersedes the session's previous one.
   */
  issue(turn: IssueRequest): string | null {
    this.sweep();
    this.supersede(turn.sessionId);
    if (!turn.attended || !this.deps.anyHolder()) return null;
    const leaseId = randomBytes(12).toString("hex");
    const token = `sq1.${this.registryId}.${leaseId}.${this.mac(leaseId)}`;
    const now = this.deps.clock.now();
    this.leases.set(leaseId, {
      state: "live",
      lease: {
        token,
        sessionId: turn.sessionId,
        turnId: turn.turnId,
        gatewaySessionKey: turn.gatewaySessionKey,
        issuedAt: now,
        expiresAt: now + this.ttlMs,
        request: deepFreeze(structuredClone(turn.request)),
        turnRoute: Object.freeze({ ...turn.turnRoute }),
      },
    });
    this.bySession.set(turn.sessionId, leaseId);
    return token;
  }

  /**
   * Checks without spending: the capability first (a plugin without it never spends the token),
   * then the token. A fork uses this before its own no-spend refusals, then calls `spend`.
   */
  peek(token: unknown, pluginId: string, capability: LeaseCapability): LeaseCheck {
    if (!this.deps.holds(pluginId, capability)) return { ok: false, reason: "no_capability" };
    const found = this.find(token);
    if (!found.ok) return found;
    const record = found.record;
    if (record.state !== "live") return { ok: false, reason: record.state };
    if (this.deps.clock.now() >= record.lease.expiresAt) return { ok: false, reason: "expired" };
    return { ok: true, lease: record.lease };
  }

  /** `peek`, and on success the token is spent: the caller owns the turn's one attempt. */
  spend(token: unknown, pluginId: string, capability: LeaseCapability): LeaseCheck {
    const check = this.peek(token, pluginId, capability);
    if (check.ok) {
      const leaseId = TOKEN_PATTERN.exec(check.lease.token)![2]!;
      this.retire(leaseId, "spent");
    }
    return check;
  }

  /** Live (unspent, unexpired) leases; for tests and diagnostics. */
  liveCount(): number {
    this.sweep();
    return [...this.leases.values()].filter((r) => r.state === "live").length;
  }

  private find(token: unknown): { ok: true; record: LeaseRecord } | { ok: false; reason: LeaseRefusal } {
    if (typeof token !== "string") return { ok: false, reason: "malformed" };
    const match = TOKEN_PATTERN.exec(token);
    if (!match) return { ok: false, reason: "malformed" };
    const [, registryId, leaseId, mac] = match as unknown as [string, string, string, string];
    if (registryId !== this.registryId) return { ok: false, reason: "foreign" };
    const expected = Buffer.from(this.mac(leaseId), "hex");
    if (!timingSafeEqual(expected, Buffer.from(mac, "hex"))) return { ok: false, reason: "forged" };
    const record = this.leases.get(leaseId);
    // Ours and genuine, but swept after it expired or was superseded.
    if (!record) return { ok: false, reason: "expired" };
    return { ok: true, record };
  }

  private supersede(sessionId: string): void {
    const leaseId = this.bySession.get(sessionId);
    if (leaseId === undefined) return;
    this.bySession.delete(sessionId);
    this.retire(leaseId, "superseded");
  }

  /** Spent or superseded: the request is let go, the refusal's reason kept until the sweep. */
  private retire(leaseId: string, state: "spent" | "superseded"): void {
    const record = this.leases.get(leaseId);
    if (!record) return;
    const { sessionId, expiresAt } = record.state === "live" ? record.lease : record;
    // A spent lease stays spent when its session's next turn starts.
    this.leases.set(leaseId, { state: record.state === "spent" ? "spent" : state, sessionId, expiresAt });
  }

  /** Drops leases long past use, so the table stays as small as the number of live sessions. */
  private sweep(): void {
    const now = this.deps.clock.now();
    for (const [leaseId, record] of this.leases) {
      const { sessionId, expiresAt } = record.state === "live" ? record.lease : record;
      if (now >= expiresAt + this.ttlMs) {
        this.leases.delete(leaseId);
        if (this.bySession.get(sessionId) === leaseId) this.bySession.delete(sessionId);
      }
    }
  }

  private mac(leaseId: string): string {
    return createHmac("sha256", this.secret).update(`${this.registryId}.${leaseId}`).digest("hex");
  }
}
