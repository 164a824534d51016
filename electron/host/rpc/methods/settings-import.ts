/** `settings.import.*` (docs/contract.md §3.1): bringing an existing Hermes set-up over. */
import { Type } from "@sinclair/typebox";
import { method, noParams, params } from "../define.js";

export interface ImportPreview {
  /** The Hermes config.yaml read. */
  source: string;
  /** Each setting the import would change: its dotted key, the value now (null: unset) and the imported one. */
  changes: { key: string; from: unknown; to: unknown }[];
  /** Keys found in Hermes' `.env` for the imported providers; `keyHint` is the key's last 4 characters. */
  keys: { env: string; provider: string; keyHint: string }[];
  /** Capabilities Hermes had granted: they are not carried over; the consent screen asks for them. */
  pendingConsent: { plugin: string; capabilities: string[] }[];
  /** Hermes keys left behind, each with why. */
  notImported: { key: string; reason: string }[];
}

const fromProperty = Type.String({ minLength: 1, maxLength: 4096 });

export const settingsImportMethods = {
  /** Whether a Hermes config is where the import looks by default (first-run offer), and whether an import can be undone. */
  "settings.import.detect": method(noParams).returns<{ source: string | null; canRestore: boolean }>(),
  "settings.import.preview": method(params({ from: Type.Optional(fromProperty) })).returns<ImportPreview>(),
  "settings.import.apply": method(
    params({
      from: Type.Optional(fromProperty),
      keys: Type.Array(Type.String({ pattern: "^[A-Za-z_][A-Za-z0-9_]{0,127}$" }), { maxItems: 200 }),
    }),
  ).returns<{ ok: true; backup: string }>(),
  "settings.import.undo": method(noParams).returns<{ ok: true }>(),
};
