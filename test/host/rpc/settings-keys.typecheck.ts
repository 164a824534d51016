/**
 * Compile-time test of the typed settings contract (checked by \`tsc\` in npm test's typecheck step):
 * a dotted key must be a known path of the settings schema and its value that path's type.
 */
import type { SettingKey, SettingValue } from "../../../electron/host/rpc/methods/settings.js";
import type { SettingsSetParams } from "../../../electron/host/rpc/methods/settings.js";

declare function set<K extends SettingKey>(key: K, value: SettingValue<K>): void;
const id = "x" as string;
set(`plugins.entries.${id}.limits`, { daily_tokens: 5 });
set(`providers.${id}.models`, { m: { vision: true } });
set("display.busy_input_mode", "queue");
// @ts-expect-error wrong value
set("display.busy_input_mode", "nope");
// @ts-expect-error unknown key
set("display.nope", 1);
// @ts-expect-error wrong type
set("memory.note", 1);
// @ts-expect-error wrong type
set(`plugins.entries.${id}.limits`, { daily_tokens: "5" });
type L = SettingValue<`plugins.entries.${string}.limits`>;
const l: L = { heap_mb: 5 };
// The wire type refuses an unknown key too.
// @ts-expect-error unknown key
const wire: SettingsSetParams = { key: "nope.x", value: 1 };
export { l, wire };
