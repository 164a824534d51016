/** Why a call into a plugin failed without the plugin answering (docs/contract.md §5.4); reasons are public. */

/** The plugin did not answer within the call's deadline; the plugin stays up. */
export class PluginTimeoutError extends Error {
  override readonly name = "PluginTimeoutError";
  readonly reason = "plugin_timeout" as const;
}

/** The plugin's worker stopped, crashed or stopped answering heartbeats while the call was pending. */
export class PluginUnresponsiveError extends Error {
  override readonly name = "PluginUnresponsiveError";
  readonly reason = "plugin_unresponsive" as const;
}

/** A plugin spent its daily token budget (`plugins.entries.<id>.limits.daily_tokens`). */
export class PluginLlmBudgetError extends Error {
  override readonly name = "PluginLlmBudgetError";
  readonly reason = "plugin_budget_exhausted" as const;
}
