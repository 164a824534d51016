/**
 * The per-plugin daily counters survive a restart (plugin-usage.json in the data home) and still
 * reset at local midnight; a damaged file starts them at zero instead of stopping the app.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ManualClock } from "../../fixtures/manual-clock.js";
import { BUDGET_FILE_NAME } from "../../../electron/host/plugins/budgets/budget-file.js";
import { PluginBudgets } from "../../../electron/host/plugins/budgets/plugin-budget.js";
import { tempHome } from "../support/temp-home.js";

let home: { dir: string; cleanup(): void };
let file: string;
beforeEach(() => {
  home = tempHome();
  file = join(home.dir, BUDGET_FILE_NAME);
});
afterEach(() => home.cleanup());

const limit100 = () => 100;
// A fixed wait only where nothing may be written (a budget without a file): no event says "nothing".
const afterTokensWrite = () => new Promise((resolve) => setTimeout(resolve, 400));
/** The tokens the budget file holds for `pluginId` today, or undefined before it is written. */
const tokensOnDisk = (pluginId: string): unknown =>
  existsSync(file)
    ? (JSON.parse(readFileSync(file, "utf8")) as { days?: Record<string, { tokens?: number }> }).days?.[
        pluginId
      ]?.tokens
    : undefined;

describe("plugin counters across a restart", () => {
  it("keeps tokens spent today, so a spent budget stays spent after a restart", async () => {
    const clock = new ManualClock();
    const before = new PluginBudgets(clock, limit100, file);
    before.spend("spender", 100);
    before.countCall("spender");
    // The tokens are written within a quarter second of the call that spent them, without waiting for close.
    await vi.waitFor(() => expect(tokensOnDisk("spender")).toBe(100), { interval: 20 });
    const afterCrash = new PluginBudgets(clock, limit100, file);
    expect(afterCrash.tokensToday("spender")).toBe(100);
    expect(() => afterCrash.check("spender")).toThrow(/daily budget of 100 tokens/);

    // Counts of calls are written within a second, and at flush (close).
    before.flush();
    expect(new PluginBudgets(clock, limit100, file).callsToday("spender")).toBe(1);
  });

  it("resets at local midnight even when the last run was yesterday", () => {
    const clock = new ManualClock();
    const budgets = new PluginBudgets(clock, limit100, file);
    budgets.spend("spender", 100);
    budgets.flush();
    const now = new Date(clock.now());
    clock.advance(new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1).getTime() - clock.now());
    const nextDay = new PluginBudgets(clock, limit100, file);
    expect(nextDay.tokensToday("spender")).toBe(0);
    expect(() => nextDay.check("spender")).not.toThrow();
  });

  it("starts at zero from a damaged or foreign file, and writes a good one over it", () => {
    const clock = new ManualClock();
    for (const text of ["{not json", '{"version":2,"days":{}}', '{"version":1,"days":{"x":{"day":1}}}']) {
      writeFileSync(file, text);
      const budgets = new PluginBudgets(clock, limit100, file);
      expect(budgets.tokensToday("x")).toBe(0);
      budgets.spend("x", 7);
      budgets.flush();
      expect(JSON.parse(readFileSync(file, "utf8")).days.x.tokens).toBe(7);
    }
  });

  it("without a file stays in memory", async () => {
    const clock = new ManualClock();
    const budgets = new PluginBudgets(clock, limit100);
    budgets.spend("x", 5);
    budgets.flush();
    await afterTokensWrite();
    expect(new PluginBudgets(clock, limit100).tokensToday("x")).toBe(0);
  });
});
