/**
 * Trust as a property (docs/contract.md §6.6, §7): generated `plugins.entries.<id>` blocks (each `llm.allow_*`
 * flag absent, true or false; allowlists absent, empty, lists in any case, `"*"`; capability grants;
 * consent hashes that match, do not, or are absent) against generated route arguments (provider,
 * model, agentId, profile, task). The oracle (support/trust-oracle.ts) is written from the
 * contract's text. For `ctx.llm`: no call passes that the contract refuses, nothing reaches a provider
 * when refused, and every refusal is a documented one (class and words). For side questions and
 * forks: a plugin without its capability never gets the turn's token and never spends it; one with
 * it gets exactly the token's own state.
 *
 * 500 cases of each in `npm test`; `HERMES_STRESS=1` (npm run test:stress) runs 10,000 and, with
 * `HERMES_STRESS_REPORT=<file>`, writes what it tried and found there.
 */
import fs from "node:fs";
import { createHash } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../fixtures/manual-clock.js";
import type { PluginEntryDocument } from "../../../electron/host/config/config-schema.js";
import { isCapabilityGranted } from "../../../electron/host/plugins/capabilities/capabilities.js";
import {
  SideQuestionLeases,
  type LeaseCapability,
} from "../../../electron/host/plugins/capabilities/side-question-lease.js";
import { startRig, type Rig } from "./plugin-rig.js";
import {
  CAPABILITIES,
  holdsLeaseCapability,
  judgeLlmCall,
  type EntryBlock,
  type RouteArgs,
  type World,
} from "./support/trust-oracle.js";

const STRESS = process.env.HERMES_STRESS === "1";
const RUNS = STRESS ? 10_000 : 500;
const ID = "trusty";
const seed = process.env.HERMES_PROPERTY_SEED ? Number(process.env.HERMES_PROPERTY_SEED) : undefined;
const report: Record<string, unknown> = {};

const world: World = {
  pluginId: ID,
  providers: { fake: [], other: ["work"] },
  mainProvider: "fake",
  ownSlots: ["own_slot"],
  othersSlots: ["their_slot"],
};

// sha256 of sorted ids joined by newlines (§7.2), computed here, not by the app.
const hashOf = (ids: readonly string[]) =>
  createHash("sha256")
    .update([...ids].sort().join("\n"))
    .digest("hex");

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 3 });
/** A route argument: absent three times in four, so calls that pass are common too. */
const sometimes = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: arb, weight: 1 });
/** Granted half the time, else absent or false. */
const flag = fc.constantFrom(undefined, true, true, false);
const providerSpellings = ["fake", "FAKE", "Fake", "other", "OTHER", "oThEr", "nowhere"];
const modelSpellings = ["fake/chat-small", "FAKE/Chat-Small", "other/model-a", "Other/Model-B", "nope/model"];

/** Drops keys whose value is undefined: the config holds a key or does not. */
const defined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

const declaredArb = fc.subarray([...CAPABILITIES]);
const entryArb = (declared: string[]): fc.Arbitrary<EntryBlock | undefined> =>
  maybe(
    fc
      .record({
        llm: maybe(
          fc
            .record({
              allow_provider_override: flag,
              allowed_providers: maybe(fc.subarray([...providerSpellings.slice(0, 6), "*", "nowhere"])),
              allow_model_override: flag,
              allowed_models: maybe(fc.subarray([...modelSpellings, "*"])),
              allow_agent_id_override: flag,
              allow_profile_override: flag,
              allow_task_override: flag,
            })
            .map(defined),
        ),
        granted_capabilities: maybe(fc.subarray([...CAPABILITIES, "llm.unknown_thing"])),
        consent: fc.constantFrom("absent", "matches", "stale", "other"),
      })
      .map(({ llm, granted_capabilities, consent }) =>
        defined({
          llm,
          granted_capabilities,
          capabilities_consent:
            consent === "absent"
              ? undefined
              : {
                  hash:
                    consent === "matches"
                      ? hashOf(declared)
                      : consent === "stale"
                        ? hashOf(declared.slice(1))
                        : "0".repeat(64),
                  granted_at: "2026-11-29T10:00:00Z",
                },
        }),
      ),
  );

const argsArb: fc.Arbitrary<RouteArgs> = fc
  .record({
    provider: sometimes(fc.constantFrom(...providerSpellings)),
    model: sometimes(fc.constantFrom(...modelSpellings)),
    agentId: sometimes(fc.constantFrom("main", "MAIN", "reviewer")),
    profile: sometimes(fc.constantFrom("default", "work", "nope")),
    task: sometimes(
      fc.constantFrom(
        "auto",
        "compression",
        "vision",
        "title_generation",
        "background_review",
        "own_slot",
        "their_slot",
        "unknown_slot",
        "approval",
      ),
    ),
  })
  .map(defined);

let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
  rig.slots.register(ID, "own_slot", { displayName: "Own slot" });
  rig.slots.register("someone-else", "their_slot", { displayName: "Their slot" });
});
afterAll(async () => {
  if (process.env.HERMES_STRESS_REPORT) {
    fs.writeFileSync(process.env.HERMES_STRESS_REPORT, JSON.stringify(report, null, 2));
  }
  await rig?.dispose();
});

const setEntry = (entry: EntryBlock | undefined) =>
  rig.settings.update((doc) => {
    const plugins = (doc.plugins ??= {});
    const entries = (plugins.entries ??= {});
    if (entry === undefined) delete entries[ID];
    else entries[ID] = structuredClone(entry) as PluginEntryDocument;
  });

describe("trust property", () => {
  it(
    `ctx.llm: ${RUNS} generated policies × calls; no call passes that the contract refuses, every refusal is a documented one`,
    async () => {
      const tally = { cases: 0, passed: 0, refused: 0, byRefusal: {} as Record<string, number> };
      await fc.assert(
        fc.asyncProperty(
          declaredArb.chain((declared) => fc.tuple(entryArb(declared), argsArb)),
          async ([entry, args]) => {
            setEntry(entry);
            const verdict = judgeLlmCall(world, entry, args);
            const before = rig.requestCount();
            const outcome = await rig.llm
              .complete(ID, { messages: [{ role: "user", content: "ping" }], ...args })
              .then(
                (result) => ({ ok: true as const, result }),
                (error: Error) => ({ ok: false as const, error }),
              );
            const gateRefused =
              !outcome.ok &&
              (outcome.error.name === "PluginLlmTrustError" || outcome.error.name === "PluginLlmInputError");
            const where = `${JSON.stringify(args)} with ${JSON.stringify(entry ?? null)}`;
            tally.cases += 1;
            if (verdict.passes) {
              expect(gateRefused, `${where} must pass, got ${outcome.ok ? "" : outcome.error.message}`).toBe(
                false,
              );
              expect(rig.requestCount(), `${where}: a request was sent`).toBe(before + 1);
              if (outcome.ok && args.task === undefined) {
                // The route the contract names: the override's provider (matched in any case) and the model as spelled.
                const server = (args.provider ?? "fake").toLowerCase() === "other" ? rig.other : rig.provider;
                const body = server.lastRequest()?.body as { model?: string } | undefined;
                expect(body?.model, where).toBe(args.model ?? "fake/chat-small");
              }
              tally.passed += 1;
              return;
            }
            expect(outcome.ok, `${where} must be refused`).toBe(false);
            const error = (outcome as { error: Error }).error;
            expect(rig.requestCount(), `${where}: refused, yet a request was sent`).toBe(before);
            const documented = verdict.acceptable.some(
              (refusal) =>
                refusal.name === error.name && refusal.says.every((words) => error.message.includes(words)),
            );
            expect(
              documented,
              `${where}: ${error.name} "${error.message}" is none of ${JSON.stringify(verdict.acceptable)}`,
            ).toBe(true);
            tally.refused += 1;
            const kind = `${error.name}: ${error.message.replace(/'[^']*'/g, "'…'").slice(0, 80)}`;
            tally.byRefusal[kind] = (tally.byRefusal[kind] ?? 0) + 1;
          },
        ),
        { numRuns: RUNS, ...(seed !== undefined && { seed }) },
      );
      report.llm = tally;
      expect(tally.passed).toBeGreaterThan(0);
      expect(tally.refused).toBeGreaterThan(0);
    },
    STRESS ? 1_800_000 : 180_000,
  );

  it(`side questions and forks: ${RUNS} generated grants × tokens; the capability gates the token and never spends it`, () => {
    const tally = { cases: 0, held: 0, notHeld: 0, granted: 0, byRefusal: {} as Record<string, number> };
    const states = ["fresh", "spent", "expired", "superseded", "malformed", "forged", "foreign"] as const;
    fc.assert(
      fc.property(
        declaredArb.chain((declared) =>
          fc.tuple(
            fc.constant(declared),
            entryArb(declared),
            fc.constantFrom<LeaseCapability>("llm.side_question", "llm.session_fork"),
            fc.constantFrom(...states),
            fc.constantFrom("peek", "spend"),
          ),
        ),
        ([declared, entry, capability, state, op]) => {
          const clock = new ManualClock();
          const holds = (pluginId: string, cap: LeaseCapability) =>
            pluginId === "holder" ||
            isCapabilityGranted(cap, declared, entry as PluginEntryDocument | undefined);
          const make = () => new SideQuestionLeases({ clock, anyHolder: () => true, holds });
          const leases = make();
          const turn = {
            sessionId: "s",
            turnId: "t",
            gatewaySessionKey: "g",
            attended: true,
            request: { route: {} as never, body: { model: "m", messages: [] } as never },
            turnRoute: { providerId: "fake", baseURL: "http://x", model: "m" },
          };
          let token = leases.issue(turn)!;
          if (state === "spent") expect(leases.spend(token, "holder", capability).ok).toBe(true);
          if (state === "expired") clock.advance(60_000);
          if (state === "superseded") leases.turnStarted("s");
          if (state === "malformed") token = "not-a-token";
          if (state === "forged") token = token.replace(/[0-9a-f]{64}$/, "0".repeat(64));
          if (state === "foreign") token = make().issue(turn)!;

          const held = holdsLeaseCapability(declared, entry, capability);
          const check =
            op === "peek" ? leases.peek(token, ID, capability) : leases.spend(token, ID, capability);
          tally.cases += 1;
          if (!held) {
            tally.notHeld += 1;
            expect(check).toEqual({ ok: false, reason: "no_capability" });
            // Not spent: a plugin that holds it still gets a fresh token.
            if (state === "fresh") expect(leases.spend(token, "holder", capability).ok).toBe(true);
          } else {
            tally.held += 1;
            if (state === "fresh") {
              expect(check.ok).toBe(true);
              // One attempt per turn: once spent, nobody gets it again; a peek spends nothing.
              expect(leases.spend(token, "holder", capability).ok).toBe(op === "peek");
            } else expect(check).toEqual({ ok: false, reason: state });
          }
          if (check.ok) tally.granted += 1;
          else tally.byRefusal[check.reason] = (tally.byRefusal[check.reason] ?? 0) + 1;
        },
      ),
      { numRuns: RUNS, ...(seed !== undefined && { seed }) },
    );
    report.leases = tally;
    expect(tally.notHeld).toBeGreaterThan(0);
    expect(tally.granted).toBeGreaterThan(0);
  });
});
