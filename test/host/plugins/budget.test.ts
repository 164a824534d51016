/**
 * Daily token budgets (docs/contract.md §5.4) on an injected clock: a budget spent exactly to the limit
 * refuses the next call with PluginLlmBudgetError (reason plugin_budget_exhausted, audited, no
 * request sent) until the next local midnight.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../fixtures/manual-clock.js";
import { localDayKey } from "../../../electron/host/plugins/budgets/plugin-budget.js";
import { auditLines, loadCtxPlugin, startRig, type Rig } from "./plugin-rig.js";

let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => rig.dispose());

const ask = { messages: [{ role: "user", content: "hi" }] };

describe("a plugin's daily token budget", () => {
  it("spent exactly to the limit refuses the next call until local midnight", async () => {
    const clock = new ManualClock();
    rig.settings.update((doc) => {
      doc.plugins = { ...doc.plugins, entries: { spender: { limits: { daily_tokens: 100 } } } };
    });
    const { ctx, manager } = await loadCtxPlugin(rig, "spender", undefined, { budgetClock: clock });

    rig.provider.enqueue({ kind: "text", content: "one", usage: { promptTokens: 60, completionTokens: 40 } });
    await ctx.llm.complete(ask);
    expect(manager.get("spender").runtime).toMatchObject({ tokensToday: 100, limits: { dailyTokens: 100 } });

    const requests = rig.provider.requests.length;
    const refused = (await ctx.llm.complete(ask).catch((e: unknown) => e)) as Error & { reason?: string };
    expect(refused).toMatchObject({ name: "PluginLlmBudgetError", reason: "plugin_budget_exhausted" });
    expect(refused.message).toContain("daily budget of 100 tokens");
    expect(refused.message).toContain("plugins.entries.spender.limits.daily_tokens");
    expect(rig.provider.requests.length).toBe(requests);
    expect(auditLines(rig).at(-1)).toMatch(/plugin=spender .*outcome=refused$/);

    // One millisecond before local midnight: still spent. At midnight: a fresh day.
    const now = new Date(clock.now());
    const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1).getTime();
    clock.advance(midnight - clock.now() - 1);
    await expect(ctx.llm.complete(ask)).rejects.toMatchObject({ name: "PluginLlmBudgetError" });
    clock.advance(1);
    expect(localDayKey(clock.now())).not.toBe(localDayKey(midnight - 1));
    rig.provider.enqueue({ kind: "text", content: "two", usage: { promptTokens: 5, completionTokens: 5 } });
    await expect(ctx.llm.complete(ask)).resolves.toMatchObject({ text: "two" });
    expect(manager.get("spender").runtime?.tokensToday).toBe(10);
    await manager.close();
  });

  it("a call under the limit runs; without daily_tokens there is no budget", async () => {
    const clock = new ManualClock();
    rig.settings.update((doc) => {
      doc.plugins = { ...doc.plugins, entries: { frugal: { limits: { daily_tokens: 101 } } } };
    });
    const { ctx, manager } = await loadCtxPlugin(rig, "frugal", undefined, { budgetClock: clock });
    rig.provider.enqueue({ kind: "text", content: "a", usage: { promptTokens: 60, completionTokens: 40 } });
    await ctx.llm.complete(ask);
    rig.provider.enqueue({ kind: "text", content: "b", usage: { promptTokens: 60, completionTokens: 40 } });
    await expect(ctx.llm.complete(ask)).resolves.toMatchObject({ text: "b" }); // 100 < 101
    await expect(ctx.llm.complete(ask)).rejects.toMatchObject({ reason: "plugin_budget_exhausted" });
    rig.settings.update((doc) => {
      delete doc.plugins!.entries!.frugal!.limits;
    });
    rig.provider.enqueue("c");
    await expect(ctx.llm.complete(ask)).resolves.toMatchObject({ text: "c" });
    await manager.close();
  });

  it("refuses a limits block that is not whole numbers in range, naming the key", () => {
    expect(() => rig.settings.set("plugins.entries.x.limits", { heap_mb: 1 })).toThrow(/heap_mb/);
    expect(() => rig.settings.set("plugins.entries.x.limits", { daily_tokens: 1.5 })).toThrow(/daily_tokens/);
  });
});
