/**
 * The Add/Edit provider form without React: which preset was picked, the field values (never the
 * API key, which lives only in its input), validation, and the `providers.save` params.
 */
import { providerPresets, type ProviderPreset } from "../../../electron/host/rpc/provider-presets.js";
import type { ProvidersSaveParams, ProviderView } from "../../../electron/host/rpc/methods/providers.js";
import { isValidProviderId, slugifyProviderId } from "./provider-id.js";

export const customPresetId = "custom";

/** A preset from the contract, or Custom (any OpenAI-compatible base URL). */
export type PresetChoice = { kind: "preset"; preset: ProviderPreset } | { kind: "custom" };

export interface ProviderFields {
  name: string;
  baseUrl: string;
  keyEnv: string;
}

export type FieldErrors = Partial<Record<keyof ProviderFields | "id", string>>;

export const emptyFields: ProviderFields = { name: "", baseUrl: "", keyEnv: "" };

export const presetChoices: readonly PresetChoice[] = [
  ...providerPresets.map((preset): PresetChoice => ({ kind: "preset", preset })),
  { kind: "custom" },
];

export const choiceName = (choice: PresetChoice): string =>
  choice.kind === "preset" ? choice.preset.name : "Custom";

export const choiceBlurb = (choice: PresetChoice): string =>
  choice.kind === "preset" ? choice.preset.blurb : "Any OpenAI-compatible endpoint.";

export const fieldsForChoice = (choice: PresetChoice): ProviderFields =>
  choice.kind === "preset"
    ? { name: choice.preset.name, baseUrl: choice.preset.base_url, keyEnv: choice.preset.key_env ?? "" }
    : emptyFields;

export const fieldsForProvider = (provider: ProviderView): ProviderFields => ({
  name: provider.name,
  baseUrl: provider.base_url,
  keyEnv: provider.key_env ?? "",
});

/** What the form is for: a new provider from a preset, or an existing one (its id never changes). */
export type FormTarget = { mode: "add"; choice: PresetChoice } | { mode: "edit"; provider: ProviderView };

export function providerIdFor(target: FormTarget, fields: ProviderFields): string {
  if (target.mode === "edit") return target.provider.id;
  return target.choice.kind === "preset" ? target.choice.preset.id : slugifyProviderId(fields.name);
}

const keyEnvPattern = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

export function validateProviderFields(
  target: FormTarget,
  fields: ProviderFields,
  existingIds: readonly string[],
): FieldErrors {
  const errors: FieldErrors = {};
  const name = fields.name.trim();
  if (!name) errors.name = "Give the provider a name.";
  else if (name.length > 120) errors.name = "Keep the name under 120 characters.";

  const baseUrl = fields.baseUrl.trim();
  if (!baseUrl) errors.baseUrl = "Enter the endpoint's base URL, e.g. https://host/v1.";
  else if (!isHttpUrl(baseUrl)) errors.baseUrl = "Use a full URL that starts with http:// or https://.";

  const keyEnv = fields.keyEnv.trim();
  if (keyEnv && !keyEnvPattern.test(keyEnv)) {
    errors.keyEnv = "Use letters, digits and underscores, not starting with a digit (e.g. MY_API_KEY).";
  }

  if (target.mode === "add" && name) {
    const id = providerIdFor(target, fields);
    if (!isValidProviderId(id)) errors.id = "The name needs at least one letter or digit to make an ID from.";
    else if (existingIds.includes(id)) {
      errors.id = `A provider with the ID "${id}" already exists. Edit that one, or pick another name.`;
    }
  }
  return errors;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** The save params. `apiKey` is included only when the user typed one (empty keeps the stored key). */
export function saveParams(target: FormTarget, fields: ProviderFields, apiKey: string): ProvidersSaveParams {
  const key = apiKey.trim();
  return {
    id: providerIdFor(target, fields),
    name: fields.name.trim(),
    base_url: fields.baseUrl.trim(),
    key_env: fields.keyEnv.trim() || null,
    ...(key ? { apiKey: key } : {}),
  };
}

export const needsKey = (target: FormTarget): boolean =>
  target.mode === "add" && target.choice.kind === "preset" ? target.choice.preset.needsKey : true;
