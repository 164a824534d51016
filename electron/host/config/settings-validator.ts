/**
 * The settings schema's validator. Compiled here at run time (the tests, tsc's output); the app's
 * build puts the same validator in its place precompiled (ajv's standalone code, made by
 * scripts/precompiled-validator.mjs from `SETTINGS_AJV_OPTIONS` and the schema), so a start does
 * not compile a 100 KB validator (~130 ms of CPU) before the first window has its data.
 */
import { Ajv, type Options, type ValidateFunction } from "ajv";
import { settingsSchema } from "./config-schema.js";

/**
 * Our own ajv instance (not conf's) so messages and recovery stay ours. `verbose` gives each
 * error its schema, whose `description` becomes the "must be …" phrase.
 */
export const SETTINGS_AJV_OPTIONS: Readonly<Options> = {
  allErrors: true,
  strict: true,
  verbose: true,
  validateSchema: false,
};

export function compileSettingsValidator(): ValidateFunction {
  return new Ajv({ ...SETTINGS_AJV_OPTIONS }).compile(settingsSchema);
}
