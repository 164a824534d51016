/**
 * Writing one setting: the key is a known dotted path of the settings schema and the value that
 * path's type (both from the contract), so a misspelt key or a wrong value is a type error here.
 * `base` is the value this window showed for the key: when another window changed it since, the
 * host still writes this one and shows a conflict naming both, so neither is lost silently.
 */
import type { SettingKey, SettingValue } from "../../../electron/host/rpc/methods/settings.js";
import type { HermesClient } from "./client.js";

export async function saveSetting<K extends SettingKey>(
  client: HermesClient,
  key: K,
  value: SettingValue<K>,
  base?: SettingValue<K>,
): Promise<void> {
  await client.call("settings.set", base === undefined ? { key, value } : { key, value, base });
}
