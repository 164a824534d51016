/**
 * The words Settings → Models → Auxiliary uses for a slot's route and the stale banner
 * (docs/contract.md §6.5): `auto · use main model`, `<provider> · <model>`, `inherits <Base> · <provider> ·
 * <model>`, and "<N> auxiliary task(s) (<labels>) still run on <provider>, not your main model." (in the
 * singular for one task, with the provider's display name)
 */
import type { AuxiliaryTaskRow } from "../../../../electron/host/rpc/methods/model.js";

const labelOf = (rows: readonly AuxiliaryTaskRow[], task: string): string =>
  rows.find((r) => r.task === task)?.label ?? task;

export function routeInWords(row: AuxiliaryTaskRow, rows: readonly AuxiliaryTaskRow[]): string {
  const { provider, model } = row.effective;
  switch (row.source) {
    case "main":
      return "auto · use main model";
    case "inherited":
      return `inherits ${labelOf(rows, row.chain[1] ?? row.inherit_from ?? "")} · ${provider} · ${model}`;
    case "pin":
    case "defaults":
      return `${provider} · ${model}`;
  }
}

/** The whole chain when a slot inherits through another: "Classify → Sorter → Compression". */
export function chainInWords(row: AuxiliaryTaskRow, rows: readonly AuxiliaryTaskRow[]): string | null {
  if (row.source !== "inherited" || row.chain.length < 3) return null;
  return row.chain.map((task) => labelOf(rows, task)).join(" → ");
}

/** "1 auxiliary task (Vision) still runs on OpenRouter, …" / "2 auxiliary task(s) (…) still run on …". */
export function staleBannerText(
  rows: readonly AuxiliaryTaskRow[],
  providerName: (id: string) => string = (id) => id,
): string | null {
  const stale = rows.filter((r) => r.stale);
  if (stale.length === 0) return null;
  const providers = [...new Set(stale.map((r) => r.provider))].map(providerName);
  const labels = stale.map((r) => r.label).join(", ");
  // One task reads in the singular; several keep docs/contract.md §6.5's wording.
  const counted = stale.length === 1 ? "1 auxiliary task" : `${stale.length} auxiliary task(s)`;
  return `${counted} (${labels}) still ${stale.length === 1 ? "runs" : "run"} on ${providers.join(", ")}, not your main model.`;
}

/** A slot the user pinned: Reset applies, and Follow <Base> when it has a base. */
export const isPinnedRow = (row: AuxiliaryTaskRow): boolean => row.source === "pin";
