import type { Database, Statement } from "better-sqlite3";
import type { Clock } from "../../../clock.js";
import type { Usage } from "../../../llm/usage.js";
import type { UsageCategory, UsageEntry, UsageRow } from "../types.js";
import { SessionInputError } from "../session-errors.js";

const fixedCategories = new Set(["chat", "title_generation", "compression", "vision", "background_review"]);

export function isUsageCategory(category: string): category is UsageCategory {
  return (
    fixedCategories.has(category) ||
    /^plugin_(llm|side_question|fork):[a-z0-9_-]{1,64}$/.test(category) ||
    // An MCP server's sampling requests (docs/contract.md §13.4), by server id.
    /^mcp:[a-z0-9][a-z0-9_-]{0,31}$/.test(category)
  );
}

/** A model call's usage as a ledger entry of `category`. */
export function usageEntry(category: UsageCategory, usage: Usage): UsageEntry {
  return {
    category,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cacheReadTokens: usage.cacheReadTokens,
    cacheWriteTokens: usage.cacheWriteTokens,
    costUsd: usage.costUsd,
  };
}

type InsertParams = [number, string, number, number, number, number, number | null, number];

type GroupedRow = {
  category: string;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  cost_usd: number | null;
};

/**
 * Token and cost usage per session, one row per model call, summed per category on read.
 * A category's cost is null when none of its calls reported one: "unknown" is not "free".
 */
export class UsageLedger {
  private readonly insertStmt: Statement<InsertParams>;
  private readonly groupedStmt: Statement<[number], GroupedRow>;

  constructor(
    db: Database,
    private readonly clock: Clock,
  ) {
    this.insertStmt = db.prepare(
      `INSERT INTO usage (session_row, category, input_tokens, output_tokens, cache_read_tokens,
                          cache_write_tokens, cost_usd, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // SQL sum() is NULL when every value is NULL, which is exactly the "no cost reported" case.
    this.groupedStmt = db.prepare(
      `SELECT category,
              sum(input_tokens) AS input_tokens, sum(output_tokens) AS output_tokens,
              sum(cache_read_tokens) AS cache_read_tokens, sum(cache_write_tokens) AS cache_write_tokens,
              sum(cost_usd) AS cost_usd
       FROM usage WHERE session_row = ?
       GROUP BY category ORDER BY min(row)`,
    );
  }

  add(sessionRow: number, entry: UsageEntry): void {
    this.insertStmt.run(
      sessionRow,
      entry.category,
      tokenCount(entry.inputTokens, "inputTokens"),
      tokenCount(entry.outputTokens, "outputTokens"),
      tokenCount(entry.cacheReadTokens, "cacheReadTokens"),
      tokenCount(entry.cacheWriteTokens, "cacheWriteTokens"),
      entry.costUsd === null ? null : costValue(entry.costUsd),
      this.clock.now(),
    );
  }

  /** Rows in the order each category was first recorded. */
  grouped(sessionRow: number): UsageRow[] {
    return this.groupedStmt.all(sessionRow).map((row) => ({
      category: row.category,
      inputTokens: row.input_tokens,
      outputTokens: row.output_tokens,
      cacheReadTokens: row.cache_read_tokens,
      cacheWriteTokens: row.cache_write_tokens,
      costUsd: row.cost_usd,
    }));
  }
}

function tokenCount(value: number, field: string): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new SessionInputError(`Usage ${field} must be a whole number of tokens ≥ 0, got ${value}.`);
  }
  return value;
}

function costValue(value: number): number {
  if (!Number.isFinite(value) || value < 0) {
    throw new SessionInputError(`Usage costUsd must be a finite amount ≥ 0 or null, got ${value}.`);
  }
  return value;
}
