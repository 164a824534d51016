/**
 * `model.set` and `model.auxiliary.list` (docs/contract.md §6.5, §11): the main model, one slot's pin, a
 * slot back to auto, and reset-all. Every change is written to `config.yaml` at once; the next
 * call resolves from it. Only slots in the registry can be set or reset.
 */
import type { AuxiliaryTaskConfig, SettingsDocument } from "../config/config-schema.js";
import type { SettingsStore } from "../config/settings-store.js";
import { checkBaseUrl } from "./base-url.js";
import { findProviderId } from "../llm/route.js";
import { ModelInputError } from "./model-errors.js";
import {
  isResetAll,
  type AuxiliaryTaskRow,
  type ModelSetAuxiliaryParams,
  type ModelSetMainParams,
  type ModelSetParams,
  type ModelSetResult,
} from "../rpc/methods/model.js";
import { auxiliaryRows } from "./auxiliary-rows.js";
import type { AuxiliaryTaskRegistry } from "./auxiliary-tasks.js";
import { stalePins } from "./stale-pins.js";

const routeKeys = ["provider", "model", "base_url"] as const;

/** Drops a block's route so the slot follows its base or the main model; other keys stay. */
function clearRoute(doc: SettingsDocument, task: string): void {
  const block = doc.auxiliary?.[task];
  if (!block || typeof block !== "object") return;
  for (const key of routeKeys) delete block[key];
  if (Object.keys(block).length === 0) delete doc.auxiliary![task];
}

export class ModelService {
  constructor(
    private readonly settings: SettingsStore,
    private readonly slots: AuxiliaryTaskRegistry,
  ) {}

  auxiliaryList(): { tasks: AuxiliaryTaskRow[] } {
    return { tasks: auxiliaryRows(this.settings.get(), this.slots) };
  }

  async set(params: ModelSetParams): Promise<ModelSetResult> {
    if (isResetAll(params)) return this.resetAll();
    return params.scope === "auxiliary" ? this.setAuxiliary(params) : this.setMain(params);
  }

  /** Every slot of the registry back to auto; other slots' blocks (a disabled plugin's) stay. */
  private resetAll(): ModelSetResult {
    const keys = this.slots.keys();
    this.settings.update((doc) => {
      for (const key of keys) clearRoute(doc, key);
    });
    return { ok: true, scope: "auxiliary", tasks: this.auxiliaryList().tasks };
  }

  private configuredProvider(raw: string, key: string): string {
    const providerId = findProviderId(this.settings.get(), raw);
    if (!providerId) {
      throw new ModelInputError(
        `${key} "${raw}" is not a configured provider; add it in Settings → Providers or pick another.`,
        key,
      );
    }
    return providerId;
  }

  private setMain(params: ModelSetMainParams): ModelSetResult {
    const providerId = this.configuredProvider(params.provider, "model.provider");
    if (!params.model.trim()) {
      throw new ModelInputError("model.model must name a model", "model.model");
    }
    this.settings.set("model", { provider: providerId, model: params.model.trim() });
    const after = this.settings.get();
    return {
      ok: true,
      scope: "main",
      provider: providerId,
      model: after.model.model,
      stale_aux: stalePins(after, this.slots),
    };
  }

  private setAuxiliary(params: ModelSetAuxiliaryParams): ModelSetResult {
    const { task } = params;
    if (!this.slots.get(task)) {
      throw new ModelInputError(
        `unknown auxiliary task "${task}"; the tasks are: ${this.slots.keys().join(", ")}`,
        "task",
      );
    }
    const provider = params.provider.trim();
    const model = params.model.trim();
    const follows = (provider === "auto" || provider === "main") && !model && !params.base_url;
    if (follows) {
      this.settings.update((doc) => clearRoute(doc, task));
    } else {
      const key = `auxiliary.${task}.provider`;
      const providerId =
        provider === "auto" || provider === "main" ? provider : this.configuredProvider(provider, key);
      const pin: AuxiliaryTaskConfig = { provider: providerId, model };
      if (params.base_url) pin.base_url = checkBaseUrl(params.base_url, "key");
      this.settings.update((doc) => {
        const auxiliary = (doc.auxiliary ??= {});
        const existing = auxiliary[task];
        const kept = existing && typeof existing === "object" ? { ...existing } : {};
        for (const routeKey of routeKeys) delete kept[routeKey];
        auxiliary[task] = { ...kept, ...pin };
      });
    }
    const row = this.auxiliaryList().tasks.filter((r) => r.task === task);
    return { ok: true, scope: "auxiliary", tasks: row };
  }
}
