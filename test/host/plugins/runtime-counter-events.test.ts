/**
 * The Plugins page's "Today" figures move live (docs/contract.md §5.4): PluginBudgets tells its listeners
 * of each count, RuntimeCounterEvents turns that into `plugins.runtime` at once and then at most
 * once per interval per plugin (the last count always sent), and the real host emits it when a
 * plugin's command runs.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../fixtures/manual-clock.js";
import { PluginBudgets } from "../../../electron/host/plugins/budgets/plugin-budget.js";
import { RuntimeCounterEvents } from "../../../electron/host/plugins/budgets/runtime-counter-events.js";
import { startSessionRig, type SessionRig } from "../sessions/support/session-rig.js";

describe("RuntimeCounterEvents", () => {
  it("sends the first count at once, then at most once per interval per plugin, never losing the last", () => {
    const clock = new ManualClock();
    const sent: string[] = [];
    const events = new RuntimeCounterEvents(clock, (id) => sent.push(`${id}@${clock.now()}`), 500);
    const t0 = clock.now();
    events.counted("a");
    expect(sent).toEqual([`a@${t0}`]);
    events.counted("a");
    events.counted("a");
    events.counted("b"); // another plugin is not held back by a's interval
    expect(sent).toEqual([`a@${t0}`, `b@${t0}`]);
    clock.advance(499);
    expect(sent).toHaveLength(2);
    clock.advance(1);
    expect(sent).toEqual([`a@${t0}`, `b@${t0}`, `a@${t0 + 500}`]);
    clock.advance(10_000);
    expect(sent).toHaveLength(3); // nothing more was counted
    events.counted("a");
    expect(sent.at(-1)).toBe(`a@${t0 + 10_500}`);
  });

  it("close drops the scheduled events", () => {
    const clock = new ManualClock();
    const sent: string[] = [];
    const events = new RuntimeCounterEvents(clock, (id) => sent.push(id), 500);
    events.counted("a");
    events.counted("a");
    events.close();
    clock.advance(1000);
    expect(sent).toEqual(["a"]);
  });

  it("PluginBudgets tells its listeners of each call and each spend, until stopped", () => {
    const budgets = new PluginBudgets(new ManualClock(), () => undefined);
    const told: string[] = [];
    const stop = budgets.onCounted((id) =>
      told.push(`${id}:${budgets.callsToday(id)}:${budgets.tokensToday(id)}`),
    );
    budgets.countCall("p");
    budgets.spend("p", 42);
    budgets.spend("p", 0); // nothing spent, nothing told
    stop();
    budgets.countCall("p");
    expect(told).toEqual(["p:1:0", "p:1:42"]);
  });
});

describe("plugins.runtime in the host", () => {
  let rig: SessionRig;
  afterEach(async () => rig?.dispose());

  it("a plugin's command moves its calls today, sent as an app event", async () => {
    rig = await startSessionRig();
    const dir = path.join(rig.home, "plugins", "counter");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "plugin.yaml"), "name: counter\nversion: 1.0.0\nmain: index.js\n");
    fs.writeFileSync(
      path.join(dir, "index.js"),
      `export function register(ctx) { ctx.registerCommand({ name: "count", handler: () => "counted" }); }`,
    );
    await rig.host.plugins.rescan();
    await rig.host.plugins.setEnabled("counter", true);
    const { sessionId } = await rig.ok("session.create", {});
    await rig.ok("session.send", { sessionId, text: "/count" });
    const event = await rig.waitForEvent("plugins.runtime", (p) => p.id === "counter" && p.callsToday >= 1);
    expect(event).toEqual({ id: "counter", callsToday: expect.any(Number), tokensToday: 0 });
    const listed = await rig.ok("plugins.list", {});
    const counter = listed.plugins.find((p: { id: string }) => p.id === "counter");
    expect(counter.runtime.callsToday).toBeGreaterThanOrEqual(event.callsToday);
  });
});
