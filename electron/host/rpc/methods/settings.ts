/**
 * `settings.get` / `settings.set`, typed from the one settings schema (config/config-schema.ts):
 * a key is a known dotted path of the document, a value that path's type. At run time the host
 * validates every write against the JSON Schema, so a key typed here and its check never differ.
 */
import type { KnownSettingsDocument, Settings } from "../../config/config-schema.js";
import { Type } from "@sinclair/typebox";
import { method, noParams, params } from "../define.js";

export {
  BUSY_INPUT_MODES,
  THEMES,
  defaultSettings,
  type BusyInputMode,
  type MainModel,
  type ModelSettings,
  type PluginLimits,
  type Settings,
  type Theme,
} from "../../config/config-schema.js";

/** `settings.get`'s answer: the effective settings (config.yaml with the defaults filled in; never a secret). */
export type PublicSettings = Settings;

/** The document's known keys (its unknown top-level keys are for hand-written extras). */
type KnownDocument = KnownSettingsDocument;

type Leaf = string | number | boolean | null | readonly unknown[];
type Level = [never, 0, 1, 2, 3, 4, 5];

/** Every dotted path into `T`: `display`, `display.theme`, `providers.${string}.models`, … */
type DottedPath<T, Depth extends number = 6> = [Depth] extends [never]
  ? never
  : T extends Leaf
    ? never
    : {
        [K in keyof T & string]-?:
          | K
          | (NonNullable<T[K]> extends Leaf ? never : `${K}.${DottedPath<NonNullable<T[K]>, Level[Depth]>}`);
      }[keyof T & string];

/** The type at a dotted path of `T` (a record's key matches any segment). */
type ValueAt<T, P extends string> = P extends `${infer Head}.${infer Rest}`
  ? ValueAt<NonNullable<Member<T, Head>>, Rest>
  : NonNullable<Member<T, P>>;
type Member<T, K extends string> = K extends keyof T
  ? T[K]
  : string extends keyof T
    ? T[string & keyof T]
    : never;

/** A settings key the app writes, e.g. `display.busy_input_mode` or `plugins.entries.${string}.limits`. */
export type SettingKey = DottedPath<KnownDocument>;
export type SettingValue<K extends SettingKey> = ValueAt<KnownDocument, K>;

/**
 * One key and a value of its type; the host checks the value against the schema again. The wire
 * type takes any known key; `K` pairs a key with its own value type where a caller names it
 * (renderer/src/api/settings.ts `saveSetting`).
 */
export interface SettingsSetParams<K extends SettingKey = SettingKey> {
  key: K;
  value: SettingValue<K>;
  /**
   * The value this window last read for the key (from `settings.get`). When the key changed since
   * (another window saved it), the write still goes through and a `config_conflict` notice names
   * both values. Absent: no check.
   */
  base?: SettingValue<K>;
}

export const settingsMethods = {
  "settings.get": method(noParams).returns<PublicSettings>(),
  // The schema checks the key's form; the value is checked against the settings schema by the host.
  "settings.set": method(
    params({
      key: Type.String({ pattern: "^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$", maxLength: 256 }),
      value: Type.Unknown(),
      base: Type.Optional(Type.Unknown()),
    }),
  )
    .narrowedTo<SettingsSetParams>()
    .returns<{ ok: true }>(),
};

/** The smallest context window a model setting may name; the form's minimum is the schema's. */
export { MIN_CONTEXT_WINDOW } from "../../config/config-schema.js";
