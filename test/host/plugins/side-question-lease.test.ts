/**
 * Every rule of the side-question lease (docs/contract.md §7.3) with an injected clock: one token per person
 * turn when a holder is loaded, shared, spent by the first call that holds the capability, not by
 * one that does not, 60 s expiry, expiry at the session's next turn, and refusals of expired,
 * spent, foreign, forged and malformed tokens. The turn's request is kept frozen for the replay.
 */
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../fixtures/manual-clock.js";
import {
  LEASE_TTL_MS,
  SideQuestionLeases,
  routeIdentity,
  sameRoute,
  type IssueRequest,
  type LeaseCapability,
} from "../../../electron/host/plugins/capabilities/side-question-lease.js";
import type { Route } from "../../../electron/host/llm/route.js";

const route: Route = {
  providerId: "fake",
  providerName: "Fake",
  baseURL: "http://127.0.0.1:1/v1",
  model: "m-1",
  keyEnv: null,
};

function setup(grants: Record<string, LeaseCapability[]> = { asker: ["llm.side_question"] }) {
  const clock = new ManualClock();
  const leases = new SideQuestionLeases({
    clock,
    anyHolder: () => Object.values(grants).some((g) => g.length > 0),
    holds: (pluginId, capability) => grants[pluginId]?.includes(capability) ?? false,
  });
  return { clock, leases, grants };
}

const turn = (over: Partial<IssueRequest> = {}): IssueRequest => ({
  sessionId: "s1",
  turnId: "t1",
  gatewaySessionKey: "window-1",
  attended: true,
  request: { route, body: { messages: [{ role: "user", content: "hi" }] } },
  turnRoute: routeIdentity(route),
  ...over,
});

describe("side-question lease", () => {
  it("issues a token on a person turn when a holder is loaded, none otherwise", () => {
    const { leases, grants } = setup();
    expect(leases.issue(turn())).toMatch(/^sq1\./);
    expect(leases.issue(turn({ attended: false }))).toBeNull();
    delete grants.asker;
    expect(leases.issue(turn())).toBeNull();
  });

  it("is shared: the first call spends it, every later call of any plugin is refused", () => {
    const { leases } = setup({ a: ["llm.side_question"], b: ["llm.session_fork"] });
    const token = leases.issue(turn())!;
    expect(leases.peek(token, "b", "llm.session_fork").ok).toBe(true);
    expect(leases.spend(token, "a", "llm.side_question")).toMatchObject({ ok: true });
    expect(leases.spend(token, "b", "llm.session_fork")).toEqual({ ok: false, reason: "spent" });
    expect(leases.spend(token, "a", "llm.side_question")).toEqual({ ok: false, reason: "spent" });
  });

  it("a plugin without the capability gets a refusal and does not spend the token", () => {
    const { leases } = setup({ holder: ["llm.side_question"] });
    const token = leases.issue(turn())!;
    expect(leases.spend(token, "stranger", "llm.side_question")).toEqual({
      ok: false,
      reason: "no_capability",
    });
    // Holding the other capability does not count either.
    expect(leases.spend(token, "holder", "llm.session_fork")).toEqual({
      ok: false,
      reason: "no_capability",
    });
    expect(leases.spend(token, "holder", "llm.side_question").ok).toBe(true);
  });

  it("expires 60 s after the turn (exactly at the boundary)", () => {
    const { leases, clock } = setup();
    const token = leases.issue(turn())!;
    clock.advance(LEASE_TTL_MS - 1);
    expect(leases.peek(token, "asker", "llm.side_question").ok).toBe(true);
    clock.advance(1);
    expect(leases.spend(token, "asker", "llm.side_question")).toEqual({ ok: false, reason: "expired" });
    // Long after, the swept lease still reads as expired (it was ours), not as forged.
    clock.advance(10 * LEASE_TTL_MS);
    leases.issue(turn({ sessionId: "other" }));
    expect(leases.spend(token, "asker", "llm.side_question")).toEqual({ ok: false, reason: "expired" });
  });

  it("expires when the session's next turn starts, not when another session's does", () => {
    const { leases } = setup();
    const mine = leases.issue(turn())!;
    const theirs = leases.issue(turn({ sessionId: "s2" }))!;
    leases.turnStarted("s2");
    expect(leases.peek(mine, "asker", "llm.side_question").ok).toBe(true);
    expect(leases.peek(theirs, "asker", "llm.side_question")).toEqual({ ok: false, reason: "superseded" });
    leases.turnStarted("s1");
    expect(leases.spend(mine, "asker", "llm.side_question")).toEqual({ ok: false, reason: "superseded" });
  });

  it("a new token for the session supersedes the previous one", () => {
    const { leases } = setup();
    const first = leases.issue(turn())!;
    const second = leases.issue(turn({ turnId: "t2" }))!;
    expect(first).not.toBe(second);
    expect(leases.peek(first, "asker", "llm.side_question")).toEqual({ ok: false, reason: "superseded" });
    expect(leases.peek(second, "asker", "llm.side_question").ok).toBe(true);
  });

  it("refuses forged, foreign and malformed tokens", () => {
    const { leases } = setup();
    const other = setup().leases;
    const token = leases.issue(turn())!;
    const foreign = other.issue(turn())!;
    const [prefix, registry, lease, mac] = token.split(".") as [string, string, string, string];
    const flipped = `${prefix}.${registry}.${lease}.${mac.slice(0, -1)}${mac.endsWith("0") ? "1" : "0"}`;
    const otherLease = `${prefix}.${registry}.${"0".repeat(24)}.${mac}`;
    expect(leases.spend(flipped, "asker", "llm.side_question")).toEqual({ ok: false, reason: "forged" });
    expect(leases.spend(otherLease, "asker", "llm.side_question")).toEqual({ ok: false, reason: "forged" });
    expect(leases.spend(foreign, "asker", "llm.side_question")).toEqual({ ok: false, reason: "foreign" });
    for (const bad of ["", "sq1.x", 42, null, undefined, { token }]) {
      expect(leases.spend(bad, "asker", "llm.side_question")).toEqual({ ok: false, reason: "malformed" });
    }
    // None of those spent the real one.
    expect(leases.spend(token, "asker", "llm.side_question").ok).toBe(true);
  });

  it("grants are read at each call: a revoke between turn and call refuses without spending", () => {
    const { leases, grants } = setup({ asker: ["llm.side_question"], other: ["llm.side_question"] });
    const token = leases.issue(turn())!;
    grants.asker = [];
    expect(leases.spend(token, "asker", "llm.side_question")).toEqual({ ok: false, reason: "no_capability" });
    expect(leases.spend(token, "other", "llm.side_question").ok).toBe(true);
  });

  it("keeps the turn's request frozen, a copy of what was passed in", () => {
    const { leases } = setup();
    const body = { messages: [{ role: "user" as const, content: "hi" }], temperature: 0.2 };
    const token = leases.issue(turn({ request: { route, body } }))!;
    body.messages.push({ role: "user", content: "changed later" });
    const check = leases.peek(token, "asker", "llm.side_question");
    if (!check.ok) throw new Error(check.reason);
    expect(check.lease.request.body).toEqual({
      messages: [{ role: "user", content: "hi" }],
      temperature: 0.2,
    });
    expect(Object.isFrozen(check.lease.request.body.messages)).toBe(true);
    expect(check.lease).toMatchObject({ sessionId: "s1", turnId: "t1", gatewaySessionKey: "window-1" });
  });

  it("tells turn starts to listeners and compares routes by provider, endpoint and model", () => {
    const { leases } = setup();
    const seen: string[] = [];
    const stop = leases.onTurnStarted((id) => seen.push(id));
    leases.turnStarted("s1");
    stop();
    leases.turnStarted("s2");
    expect(seen).toEqual(["s1"]);
    const renamed: Route = { ...route, providerName: "renamed", timeoutSeconds: 5 };
    expect(sameRoute(routeIdentity(route), routeIdentity(renamed))).toBe(true);
    expect(sameRoute(routeIdentity(route), routeIdentity({ ...route, model: "m-2" }))).toBe(false);
  });
});
