/**
 * The session's token usage and cost, split by category (chat, title generation, plugins' calls),
 * in a small panel under the header's Usage button. Loads when opened, refreshes after each turn.
 */
import { ChartColumn } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { BUILTIN_SLOTS } from "../../../electron/host/rpc/shared-rules/auxiliary-slots.js";
import { useTranscript } from "../stores/chat/chat-context.js";
import type { UsageRow } from "../stores/chat/chat-model.js";
import { InlineAlert } from "../ui/inline-alert.js";
import { LoadingLine } from "../ui/spinner.js";

// A built-in slot's usage is billed under its key; its label is the host's (the contract's table).
const categoryLabels: Record<string, string> = {
  chat: "Chat",
  ...Object.fromEntries(BUILTIN_SLOTS.map((slot) => [slot.key, slot.label])),
};

export function categoryLabel(category: string): string {
  const known = categoryLabels[category];
  if (known) return known;
  const [kind, plugin] = category.split(":");
  const kinds: Record<string, string> = {
    plugin_llm: "Plugin",
    plugin_side_question: "Plugin side question",
    plugin_fork: "Plugin fork",
  };
  return plugin && kind && kinds[kind] ? `${kinds[kind]}: ${plugin}` : category;
}

const tokens = (n: number) => n.toLocaleString("en-US");
const cost = (usd: number | null) =>
  usd === null ? "—" : `$${usd < 0.01 && usd > 0 ? usd.toFixed(4) : usd.toFixed(2)}`;

export function UsageTable({ rows }: { rows: readonly UsageRow[] }) {
  if (rows.length === 0) return <p className="usage-empty">No tokens used in this chat yet.</p>;
  const total = rows.reduce(
    (sum, r) => ({
      inputTokens: sum.inputTokens + r.inputTokens,
      outputTokens: sum.outputTokens + r.outputTokens,
      cacheReadTokens: sum.cacheReadTokens + r.cacheReadTokens,
      costUsd: r.costUsd === null ? sum.costUsd : (sum.costUsd ?? 0) + r.costUsd,
    }),
    { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, costUsd: null as number | null },
  );
  return (
    <table className="usage-table">
      <thead>
        <tr>
          <th scope="col">Category</th>
          <th scope="col">Input</th>
          <th scope="col">Output</th>
          <th scope="col">Cached</th>
          <th scope="col">Cost</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.category}>
            <th scope="row">{categoryLabel(row.category)}</th>
            <td>{tokens(row.inputTokens)}</td>
            <td>{tokens(row.outputTokens)}</td>
            <td>{tokens(row.cacheReadTokens)}</td>
            <td>{cost(row.costUsd)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Total</th>
          <td>{tokens(total.inputTokens)}</td>
          <td>{tokens(total.outputTokens)}</td>
          <td>{tokens(total.cacheReadTokens)}</td>
          <td>{cost(total.costUsd)}</td>
        </tr>
      </tfoot>
    </table>
  );
}

export function UsagePopover() {
  const [open, setOpen] = useState(false);
  const usage = useTranscript((s) => s.usage);
  const loadUsage = useTranscript((s) => s.loadUsage);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    void loadUsage();
    const onDown = (event: MouseEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.stopPropagation();
        setOpen(false);
      }
    };
    document.addEventListener("mousedown", onDown);
    document.addEventListener("keydown", onKey, true);
    return () => {
      document.removeEventListener("mousedown", onDown);
      document.removeEventListener("keydown", onKey, true);
    };
  }, [open, loadUsage]);

  return (
    <div className="usage" ref={root}>
      <button
        type="button"
        className="header-button"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((v) => !v)}
      >
        <ChartColumn size={14} aria-hidden="true" />
        Usage
      </button>
      {open ? (
        <div id={panelId} className="usage-panel" role="region" aria-label="Token usage">
          <p className="usage-title">Tokens and cost of this chat</p>
          {usage === null || usage.kind === "loading" ? (
            <LoadingLine>Loading usage…</LoadingLine>
          ) : usage.kind === "failed" ? (
            <InlineAlert>Couldn't load usage: {usage.message}</InlineAlert>
          ) : (
            <UsageTable rows={usage.data} />
          )}
        </div>
      ) : null}
    </div>
  );
}
