import type { ConfigIssue } from "./config-errors.js";
import { valueAt } from "./document-diff.js";

export type ConfigNoticeKind = "config_corrupt" | "config_invalid" | "config_unreadable" | "config_conflict";

/** Shown in the UI and in `host.info`'s `notices` (docs/contract.md §2). */
export interface ConfigNotice {
  kind: ConfigNoticeKind;
  message: string;
}

export function movedAsideNotice(file: string, reason: string, movedTo: string): ConfigNotice {
  return {
    kind: "config_corrupt",
    message:
      `${file} could not be read (${reason}). It was moved aside to ${movedTo} and Hermes Desktop ` +
      `runs on default settings. Fix that file and move it back to config.yaml to restore your settings.`,
  };
}

export function unreadableNotice(file: string, reason: string): ConfigNotice {
  return {
    kind: "config_corrupt",
    message:
      `${file} could not be read (${reason}). Hermes Desktop runs on default settings until the ` +
      `file is fixed; saving a setting first moves it aside to config.yaml.corrupt-<time>.`,
  };
}

export function invalidNotice(file: string, issues: readonly ConfigIssue[]): ConfigNotice {
  const keys = issues.map((issue) => issue.key).join(", ");
  return {
    kind: "config_invalid",
    message:
      `${file} has settings that break the schema, so ${keys} run at their defaults: ` +
      `${issues.map((issue) => issue.message).join("; ")}. Fix them in the file, or save any ` +
      `setting to write a repaired file (the current one is kept as config.yaml.bak-<time>).`,
  };
}

/** config.yaml stopped being readable while the app runs: defaults meanwhile, writes refused. */
export function noAccessNotice(message: string): ConfigNotice {
  return {
    kind: "config_unreadable",
    message: `${message} Until then Hermes Desktop runs on default settings and saves none.`,
  };
}

/** A save met another program's change of the same keys: Hermes Desktop's value was written. */
export function conflictNotice(
  file: string,
  keys: readonly string[],
  theirs: Record<string, unknown>,
  ours: Record<string, unknown>,
): ConfigNotice {
  const show = (doc: Record<string, unknown>, key: string) => {
    const value = valueAt(doc, key);
    return value === undefined ? "(not set)" : JSON.stringify(value);
  };
  const details = keys
    .map((key) => `${key}: ${show(theirs, key)} there, ${show(ours, key)} saved`)
    .join("; ");
  return {
    kind: "config_conflict",
    message:
      `${file} was changed by another program while Hermes Desktop saved the same setting (${details}). ` +
      `Hermes Desktop's value was written; set it again if the other value was the one you wanted.`,
  };
}

/**
 * A window saved a setting it had read before another window changed it: its value was written
 * (the person's latest action); the notice names the key and the value it replaced.
 */
export function staleWriteNotice(key: string, replaced: unknown, saved: unknown): ConfigNotice {
  const show = (value: unknown) => (value === undefined ? "(not set)" : JSON.stringify(value));
  return {
    kind: "config_conflict",
    message:
      `${key} was changed in another window (to ${show(replaced)}) after this window read it; this window's ` +
      `${show(saved)} was saved over it. Set it again if the other value was the one you wanted.`,
  };
}
