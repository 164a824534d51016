/**
 * What a model can take (docs/contract.md §9.1): its context window and whether it reads images. In order:
 * `providers.<id>.models.<model>` in config.yaml, else what the provider's model list said (when
 * it says so), else defaults for well-known model names, else 32,768 tokens and text-only.
 */
import type { Settings } from "../config/config-schema.js";
import { findProviderId } from "../llm/route.js";

export const DEFAULT_CONTEXT_WINDOW = 32_768;

export interface ListedModelInfo {
  contextWindow?: number;
  vision?: boolean;
}

/** Facts a provider's `/models` answered, per provider and model; filled when the list is read. */
export class ModelInfoCache {
  private readonly byProvider = new Map<string, Map<string, ListedModelInfo>>();

  /** Reads the fields providers use: `context_length` (OpenRouter), `context_window`, modalities. */
  record(providerId: string, entries: readonly unknown[]): void {
    const models = new Map<string, ListedModelInfo>();
    for (const entry of entries) {
      if (!entry || typeof entry !== "object") continue;
      const e = entry as Record<string, unknown>;
      if (typeof e.id !== "string") continue;
      const info: ListedModelInfo = {};
      const window = [e.context_length, e.context_window, e.max_context_length].find(
        (v): v is number => typeof v === "number" && v > 0,
      );
      if (window) info.contextWindow = window;
      const architecture = e.architecture as { input_modalities?: unknown } | undefined;
      const modalities = architecture?.input_modalities ?? e.input_modalities;
      if (Array.isArray(modalities)) info.vision = modalities.includes("image");
      if (info.contextWindow !== undefined || info.vision !== undefined) models.set(e.id, info);
    }
    this.byProvider.set(providerId, models);
  }

  get(providerId: string, model: string): ListedModelInfo | undefined {
    return this.byProvider.get(providerId)?.get(model);
  }
}

/** Well-known families, matched on the model id's last path segment, most specific first. */
const knownModels: readonly { pattern: RegExp; contextWindow: number; vision: boolean }[] = [
  { pattern: /^gpt-4\.1/, contextWindow: 1_047_576, vision: true },
  { pattern: /^gpt-4o/, contextWindow: 128_000, vision: true },
  { pattern: /^gpt-4-turbo/, contextWindow: 128_000, vision: true },
  { pattern: /^gpt-5/, contextWindow: 400_000, vision: true },
  { pattern: /^gpt-3\.5/, contextWindow: 16_385, vision: false },
  { pattern: /^o[134](-|$)/, contextWindow: 200_000, vision: true },
  { pattern: /^claude/, contextWindow: 200_000, vision: true },
  { pattern: /^gemini/, contextWindow: 1_048_576, vision: true },
  {
    pattern: /^(llama-?3\.2|llava|qwen2(\.5)?-vl|qwen-vl|pixtral|gemma-?3)/,
    contextWindow: 128_000,
    vision: true,
  },
  { pattern: /^llama-?3\.[13]/, contextWindow: 128_000, vision: false },
  { pattern: /^llama-?3/, contextWindow: 8_192, vision: false },
  { pattern: /^qwen3/, contextWindow: 32_768, vision: false },
  { pattern: /^(mistral-large|mistral-medium|mistral-small)/, contextWindow: 128_000, vision: false },
  { pattern: /^deepseek/, contextWindow: 128_000, vision: false },
  { pattern: /vision|-vl\b|-vl-/, contextWindow: DEFAULT_CONTEXT_WINDOW, vision: true },
];

/** Model id → its family (or none), so a turn's capability checks don't rerun the patterns. */
const knownByModel = new Map<string, (typeof knownModels)[number] | undefined>();
const MAX_REMEMBERED_MODELS = 256;

const known = (model: string) => {
  if (knownByModel.has(model)) return knownByModel.get(model);
  const name = model.toLowerCase().split("/").pop() ?? "";
  const family = knownModels.find((k) => k.pattern.test(name));
  if (knownByModel.size >= MAX_REMEMBERED_MODELS) knownByModel.clear();
  knownByModel.set(model, family);
  return family;
};

function configured(settings: Settings, providerId: string, model: string) {
  const id = findProviderId(settings, providerId);
  return id ? settings.providers[id]?.models?.[model] : undefined;
}

export function contextWindowOf(
  settings: Settings,
  providerId: string,
  model: string,
  listed?: ModelInfoCache,
): number {
  return (
    configured(settings, providerId, model)?.context_window ??
    listed?.get(providerId, model)?.contextWindow ??
    known(model)?.contextWindow ??
    DEFAULT_CONTEXT_WINDOW
  );
}

export function supportsVision(
  settings: Settings,
  providerId: string,
  model: string,
  listed?: ModelInfoCache,
): boolean {
  return (
    configured(settings, providerId, model)?.vision ??
    listed?.get(providerId, model)?.vision ??
    known(model)?.vision ??
    false
  );
}
