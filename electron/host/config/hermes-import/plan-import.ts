/**
 * The plan of an import: every section of the Hermes config mapped (hermes-sections.ts), the
 * providers it defines or uses, the `.env` keys those providers can take, and each edit checked
 * against the app's schema on its own, so one bad value is listed as not imported instead of
 * sinking the rest.
 */
import { isDeepStrictEqual } from "node:util";
import type { SettingsDocument } from "../config-schema.js";
import { deleteAtPath, setAtPath } from "../document-paths.js";
import { findDocumentIssues } from "../schema-issues.js";
import { HermesProviders } from "./hermes-providers.js";
import { sectionImporters } from "./hermes-sections.js";
import type { HermesSource } from "./hermes-source.js";
import { addEdit, emptyPlan, skip, type ImportEdit, type ImportPlan } from "./import-plan.js";

export interface PlannedImport extends ImportPlan {
  changes: { key: string; from: unknown; to: unknown }[];
}

export function planImport(source: HermesSource, current: SettingsDocument): PlannedImport {
  const providers = new HermesProviders(source.config);
  const sectionPlan = emptyPlan();
  for (const [section, value] of Object.entries(source.config)) {
    const importer = Object.hasOwn(sectionImporters, section) ? sectionImporters[section] : undefined;
    if (importer) importer(value, { plan: sectionPlan, providers });
    else skip(sectionPlan, section, "Hermes Desktop has no such setting.");
  }
  providers.importUnreferenced();

  const plan = emptyPlan();
  for (const provider of providers.used.values()) addEdit(plan, ["providers", provider.id], provider.config);
  plan.edits.push(...sectionPlan.edits);
  plan.pendingConsent.push(...sectionPlan.pendingConsent);
  plan.notImported.push(...providers.skipped, ...sectionPlan.notImported);
  for (const provider of providers.used.values()) {
    const env = provider.keyEnvs.find((name) => source.env.get(name)?.trim());
    if (env) plan.keys.push({ env, provider: provider.id, value: source.env.get(env)!.trim() });
  }

  const { accepted, refused } = checkEach(
    plan.edits.map((edit) => merged(edit, current)),
    current,
  );
  plan.notImported.push(...refused);
  // A provider the schema refused takes its key offer and the main model pointing at it along.
  const known = new Set([
    ...Object.keys(current.providers ?? {}),
    ...accepted.filter((e) => e.path[0] === "providers").map((e) => e.path[1]!),
  ]);
  plan.keys = plan.keys.filter((offer) => known.has(offer.provider));
  const mainProvider = accepted.find((e) => e.key === "model.provider");
  if (mainProvider && !known.has(mainProvider.value as string)) {
    const reason = `Its provider "${String(mainProvider.value)}" is not imported (see above).`;
    for (const key of ["model.provider", "model.model"]) {
      const index = accepted.findIndex((e) => e.key === key);
      if (index >= 0) {
        accepted.splice(index, 1);
        plan.notImported.push({ key, reason });
      }
    }
  }
  const changes = accepted
    .map((edit) => ({ key: edit.key, from: valueAt(current, edit.path) ?? null, to: edit.value }))
    .filter((change) => !isDeepStrictEqual(change.from, change.to));
  return { ...plan, edits: accepted, changes };
}

/** Plugin lists join what the app has: an import never turns off a plugin enabled here. */
function merged(edit: ImportEdit, current: SettingsDocument): ImportEdit {
  if (edit.key !== "plugins.enabled" && edit.key !== "plugins.disabled") return edit;
  const here = (valueAt(current, edit.path) as string[] | undefined) ?? [];
  return { ...edit, value: [...new Set([...here, ...(edit.value as string[])])] };
}

/** Applies the edits in order to a copy of the document, keeping each one the schema accepts. */
function checkEach(edits: ImportEdit[], current: SettingsDocument) {
  const trial = structuredClone(current);
  const baseline = new Set(findDocumentIssues(trial).map((issue) => issue.key));
  const accepted: ImportEdit[] = [];
  const refused: { key: string; reason: string }[] = [];
  for (const edit of edits) {
    const before = valueAt(trial, edit.path);
    let problem: string | undefined;
    try {
      setAtPath(trial, edit.path, structuredClone(edit.value));
      problem = findDocumentIssues(trial).find((i) => !baseline.has(i.key))?.message;
    } catch (error) {
      problem = (error as Error).message;
    }
    if (problem === undefined) {
      accepted.push(edit);
      continue;
    }
    if (before === undefined) deleteAtPath(trial, edit.path);
    else setAtPath(trial, edit.path, before);
    refused.push({ key: edit.key, reason: problem });
  }
  return { accepted, refused };
}

export function applyEdits(doc: SettingsDocument, edits: readonly ImportEdit[]): void {
  for (const edit of edits) setAtPath(doc, edit.path, structuredClone(edit.value));
}

function valueAt(doc: SettingsDocument, path: readonly string[]): unknown {
  let node: unknown = doc;
  for (const segment of path) {
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return structuredClone(node);
}
