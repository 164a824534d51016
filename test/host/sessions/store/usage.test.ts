import { describe, expect, it } from "vitest";
import { SessionInputError } from "../../../../electron/host/sessions/store/session-errors.js";
import type { UsageEntry } from "../../../../electron/host/sessions/store/types.js";
import { openStore, snapshot } from "./store-fixtures.js";

const entry = (over: Partial<UsageEntry>): UsageEntry => ({
  category: "chat",
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd: null,
  ...over,
});

describe("SessionStore usage ledger", () => {
  it("sums rows per category, in the order categories were first used", () => {
    const { store } = openStore();
    const session = store.createSession({ snapshot });
    const other = store.createSession({ snapshot });
    store.addUsage(
      session.id,
      entry({ inputTokens: 100, outputTokens: 20, cacheReadTokens: 60, costUsd: 0.25 }),
    );
    store.addUsage(session.id, entry({ category: "title_generation", inputTokens: 30, outputTokens: 5 }));
    store.addUsage(
      session.id,
      entry({ inputTokens: 50, outputTokens: 10, cacheWriteTokens: 7, costUsd: 0.5 }),
    );
    store.addUsage(
      session.id,
      entry({ category: "plugin_llm:notes", inputTokens: 9, outputTokens: 1, costUsd: 0 }),
    );
    store.addUsage(other.id, entry({ inputTokens: 999, costUsd: 9 }));

    expect(store.usage(session.id)).toEqual([
      {
        category: "chat",
        inputTokens: 150,
        outputTokens: 30,
        cacheReadTokens: 60,
        cacheWriteTokens: 7,
        costUsd: 0.75,
      },
      {
        category: "title_generation",
        inputTokens: 30,
        outputTokens: 5,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        costUsd: null,
      },
      {
        category: "plugin_llm:notes",
        inputTokens: 9,
        outputTokens: 1,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        costUsd: 0,
      },
    ]);
  });

  it("reports a category's cost as null only when none of its rows reported one", () => {
    const { store } = openStore();
    const session = store.createSession({ snapshot });
    store.addUsage(session.id, entry({ category: "vision", inputTokens: 1 }));
    store.addUsage(session.id, entry({ category: "vision", inputTokens: 2 }));
    store.addUsage(session.id, entry({ category: "compression", costUsd: null }));
    store.addUsage(session.id, entry({ category: "compression", costUsd: 0.125 }));
    const rows = store.usage(session.id);
    expect(rows.find((r) => r.category === "vision")).toMatchObject({ inputTokens: 3, costUsd: null });
    expect(rows.find((r) => r.category === "compression")?.costUsd).toBe(0.125);
  });

  it("has no rows for a session without usage", () => {
    const { store } = openStore();
    expect(store.usage(store.createSession({ snapshot }).id)).toEqual([]);
  });

  it("refuses negative or fractional token counts and bad costs", () => {
    const { store } = openStore();
    const id = store.createSession({ snapshot }).id;
    expect(() => store.addUsage(id, entry({ inputTokens: -1 }))).toThrow(SessionInputError);
    expect(() => store.addUsage(id, entry({ outputTokens: 1.5 }))).toThrow(SessionInputError);
    expect(() => store.addUsage(id, entry({ costUsd: Number.NaN }))).toThrow(SessionInputError);
    expect(store.usage(id)).toEqual([]);
  });
});
