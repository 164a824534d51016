/**
 * Writing one setting: the key is a known dotted path of the settings schema and the value that
 * path's type (both from the contract), so a misspelt key or a wrong value is a type error here.
 */
import type { SettingKey, SettingValue } from "../../../electron/host/rpc/methods/settings.js";
import type { HermesClient } from "./client.js";

export async function saveSetting<K extends SettingKey>(
  client: HermesClient,
  key: K,
  value: SettingValue<K>,
): Promise<void> {
  await client.call("settings.set", { key, value });
}
