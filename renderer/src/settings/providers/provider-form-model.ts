/**
 * The Add/Edit provider form without React: which preset was picked, the field values (never the
 * API key, which lives only in its input), and the `providers.save` params. The host checks the
 * fields and derives a new provider's id; its `invalid_params` error names the field to mark.
 */
import {
  providerPresets,
  type ProviderPreset,
} from "../../../../electron/host/rpc/shared-rules/provider-presets.js";
import type { ProvidersSaveParams, ProviderView } from "../../../../electron/host/rpc/methods/providers.js";
import { slugifyProviderId } from "../../../../electron/host/rpc/shared-rules/provider-id.js";
import { HermesRpcError } from "../../api/rpc-error.js";

export const customPresetId = "custom";

/** A preset from the contract, or Custom (any OpenAI-compatible base URL). */
export type PresetChoice = { kind: "preset"; preset: ProviderPreset } | { kind: "custom" };

export interface ProviderFields {
  name: string;
  baseUrl: string;
  keyEnv: string;
}

export type FieldErrors = Partial<Record<keyof ProviderFields, string>>;

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

/** The id the host will derive (shown as a hint while the name is typed). */
export function providerIdFor(target: FormTarget, fields: ProviderFields): string {
  if (target.mode === "edit") return target.provider.id;
  return target.choice.kind === "preset" ? target.choice.preset.id : slugifyProviderId(fields.name);
}

/** The host's params key → the form field it is about. */
const fieldOfKey: Readonly<Record<string, keyof ProviderFields>> = {
  name: "name",
  base_url: "baseUrl",
  key_env: "keyEnv",
};

/** The field a refused save is about, with the host's message; null when it is about none. */
export function fieldErrorOf(err: unknown): FieldErrors | null {
  if (!(err instanceof HermesRpcError) || err.reason !== "invalid_params" || !err.key) return null;
  const field = fieldOfKey[err.key];
  return field ? { [field]: err.message } : null;
}

/** The save params. `apiKey` is included only when the user typed one (empty keeps the stored key). */
export function saveParams(target: FormTarget, fields: ProviderFields, apiKey: string): ProvidersSaveParams {
  const key = apiKey.trim();
  const id =
    target.mode === "edit"
      ? { id: target.provider.id }
      : target.choice.kind === "preset"
        ? { id: target.choice.preset.id, create: true }
        : {};
  return {
    ...id,
    name: fields.name.trim(),
    base_url: fields.baseUrl.trim(),
    key_env: fields.keyEnv.trim() || null,
    ...(key ? { apiKey: key } : {}),
  };
}

export const needsKey = (target: FormTarget): boolean =>
  target.mode === "add" && target.choice.kind === "preset" ? target.choice.preset.needsKey : true;
