/** What an import would do, before anything is written (docs/contract.md §3.1's preview, plus the key values kept host-side). */

export interface ImportEdit {
  /** The app's dotted key, e.g. `providers.openrouter` or `display.busy_input_mode`. */
  key: string;
  path: string[];
  value: unknown;
}

export interface KeyOffer {
  env: string;
  provider: string;
  /** Never sent anywhere: the renderer sees `keyHint` only. */
  value: string;
}

export interface ImportPlan {
  edits: ImportEdit[];
  keys: KeyOffer[];
  pendingConsent: { plugin: string; capabilities: string[] }[];
  notImported: { key: string; reason: string }[];
}

export function emptyPlan(): ImportPlan {
  return { edits: [], keys: [], pendingConsent: [], notImported: [] };
}

export function addEdit(plan: ImportPlan, path: string[], value: unknown): void {
  plan.edits.push({ key: path.join("."), path, value });
}

export function skip(plan: ImportPlan, key: string, reason: string): void {
  plan.notImported.push({ key, reason });
}
