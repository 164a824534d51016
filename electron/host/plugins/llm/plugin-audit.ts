/**
 * One `plugin_llm` line per `ctx.llm` call in `logs/agent.log` (docs/contract.md §6.7), refused calls
 * included. Only routing facts and token counts: never the prompt, the reply or a key. The line is
 * stamped when the call ends and written moments later, after the answer is handed back.
 */
import type { AgentLog } from "../../logging/agent-log.js";

export type LlmAuditOutcome = "ok" | "refused" | "error";

export interface LlmAuditEntry {
  pluginId: string;
  provider: string | null;
  model: string | null;
  purpose: string | null;
  task: string | null;
  inputTokens: number;
  outputTokens: number;
  outcome: LlmAuditOutcome;
}

/** Placeholder for a value the call did not have (no purpose, a refusal before routing). */
const NONE = "-";

export function writeLlmAudit(log: AgentLog, entry: LlmAuditEntry): void {
  log.writeSoon("INFO", "plugin_llm", {
    plugin: entry.pluginId,
    provider: entry.provider || NONE,
    model: entry.model || NONE,
    purpose: entry.purpose || NONE,
    task: entry.task || "auto",
    input_tokens: entry.inputTokens,
    output_tokens: entry.outputTokens,
    outcome: entry.outcome,
  });
}
