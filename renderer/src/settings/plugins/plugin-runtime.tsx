/**
 * A running plugin's health and limits (docs/contract.md §5.4): its state in words (running, not responding,
 * restarting, stopped after repeated crashes), restarts and the last reason with its time, memory,
 * calls and tokens today against its budget, a Restart button, and the daily budget / heap cap.
 */
import { RotateCcw } from "lucide-react";
import { useState, type FormEvent } from "react";
import type { PluginRuntimeView, PluginView } from "../../../../electron/host/rpc/methods/plugins.js";
import { limitRules, limitsIntentKey } from "../../stores/plugins/plugin-runtime-slice.js";
import { usePlugins } from "../../stores/stores-context.js";
import { Button } from "../../ui/button.js";
import { InlineAlert } from "../../ui/inline-alert.js";

const stateLabel: Readonly<Record<PluginRuntimeView["state"], string>> = {
  running: "Running",
  not_responding: "Not responding",
  restarting: "Restarting",
  stopped: "Stopped after repeated crashes",
};

const time = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

export function PluginRuntime({ plugin }: { plugin: PluginView }) {
  const runtime = plugin.runtime;
  const intent = usePlugins((s) => s.runtimeIntents[plugin.id]);
  const restart = usePlugins((s) => s.restartPlugin);
  if (!runtime) return null;
  const budget = runtime.limits.dailyTokens;
  const spent = budget !== null && runtime.tokensToday >= budget;
  return (
    <div className="plugin-section plugin-runtime" data-runtime-state={runtime.state}>
      <h3 className="plugin-section-title">Runtime</h3>
      <dl className="plugin-runtime-facts" aria-label={`Runtime of ${plugin.name}`}>
        <div>
          <dt>State</dt>
          <dd data-testid="runtime-state">{stateLabel[runtime.state]}</dd>
        </div>
        <div>
          <dt>Restarts</dt>
          <dd>
            {runtime.restarts}
            {runtime.lastError ? (
              <span className="plugin-runtime-reason">
                {" "}
                · last: {runtime.lastError}
                {runtime.lastErrorAt ? ` at ${time(runtime.lastErrorAt)}` : ""}
              </span>
            ) : null}
          </dd>
        </div>
        <div>
          <dt>Memory</dt>
          <dd>
            {runtime.memoryMb === null ? "—" : `${runtime.memoryMb} MB`} of {runtime.limits.heapMb} MB
          </dd>
        </div>
        <div>
          <dt>Today</dt>
          <dd>
            {runtime.callsToday} calls · {runtime.tokensToday.toLocaleString()} tokens
            {budget !== null ? ` of ${budget.toLocaleString()}` : ""}
          </dd>
        </div>
      </dl>
      {spent ? (
        <InlineAlert>
          Today's token budget is spent: its model calls are refused until midnight. Raise the budget below to
          allow more.
        </InlineAlert>
      ) : null}
      <div className="plugin-runtime-actions">
        <Button
          size="sm"
          icon={<RotateCcw size={14} />}
          busy={intent?.kind === "pending"}
          disabled={intent?.kind === "pending"}
          onClick={() => void restart(plugin.id)}
        >
          Restart
        </Button>
      </div>
      <PluginLimitsForm plugin={plugin} runtime={runtime} />
      {intent?.kind === "failed" ? <InlineAlert>{intent.message}</InlineAlert> : null}
    </div>
  );
}

function PluginLimitsForm({ plugin, runtime }: { plugin: PluginView; runtime: PluginRuntimeView }) {
  const setLimits = usePlugins((s) => s.setLimits);
  const limitsIntent = usePlugins((s) => s.runtimeIntents[limitsIntentKey(plugin.id)]);
  const saved = limitsIntent?.kind === "saved";
  const [dailyTokens, setDailyTokens] = useState(runtime.limits.dailyTokens?.toString() ?? "");
  const [heapMb, setHeapMb] = useState(runtime.limits.heapMb.toString());
  const [error, setError] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    // Checked here in plain words (docs/contract.md §5.4's ranges), so no config path reaches the person.
    const tokens = dailyTokens.trim() === "" ? null : Number(dailyTokens);
    const heap = heapMb.trim() === "" ? null : Number(heapMb);
    if (tokens !== null && !(Number.isInteger(tokens) && tokens >= 1)) {
      return setError(
        "The daily token budget must be a whole number of tokens, 1 or more (or empty for no budget).",
      );
    }
    if (heap !== null && !(Number.isInteger(heap) && heap >= 16 && heap <= 4096)) {
      return setError(limitRules.heap_mb);
    }
    setError(null);
    void setLimits(plugin.id, { dailyTokens: tokens, heapMb: heap });
  }

  const tokensId = `plugin-${plugin.id}-daily-tokens`;
  const heapId = `plugin-${plugin.id}-heap-mb`;
  return (
    <form className="plugin-limits" onSubmit={submit} aria-label={`Limits of ${plugin.name}`}>
      <label htmlFor={tokensId}>Daily token budget</label>
      <input
        id={tokensId}
        inputMode="numeric"
        placeholder="No budget"
        value={dailyTokens}
        onChange={(e) => setDailyTokens(e.target.value)}
      />
      <label htmlFor={heapId}>Heap cap (MB)</label>
      <input id={heapId} inputMode="numeric" value={heapMb} onChange={(e) => setHeapMb(e.target.value)} />
      <Button size="sm" type="submit">
        Save limits
      </Button>
      <p className="plugin-limits-hint">A new heap cap applies when the plugin next starts.</p>
      {/* Always mounted so screen readers announce "Saved" when it appears. */}
      <p role="status" className="save-status">
        {saved ? "Saved" : null}
      </p>
      {error ? <InlineAlert>{error}</InlineAlert> : null}
      {limitsIntent?.kind === "failed" ? <InlineAlert>{limitsIntent.message}</InlineAlert> : null}
    </form>
  );
}
