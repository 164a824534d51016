/** `model.set`: the main model now; auxiliary slots arrive with their own issue (SPEC §6.5). */
import type { SettingsStore } from "../config/settings-store.js";
import { RpcError } from "../rpc/errors.js";
import type { ModelSetParams, ModelSetResult } from "../rpc/methods/model.js";
import { stalePins } from "./stale-pins.js";

export class ModelService {
  constructor(private readonly settings: SettingsStore) {}

  async set(params: ModelSetParams): Promise<ModelSetResult> {
    if (params.scope === "auxiliary") {
      throw new RpcError("invalid_params", "Auxiliary slots are not available in this version yet", {
        key: "scope",
      });
    }
    const current = this.settings.get();
    const providerId = Object.keys(current.providers).find(
      (id) => id.toLowerCase() === params.provider.toLowerCase(),
    );
    if (!providerId) {
      throw new RpcError(
        "invalid_params",
        `model.provider "${params.provider}" is not a configured provider`,
        {
          key: "model.provider",
        },
      );
    }
    if (!params.model.trim()) {
      throw new RpcError("invalid_params", "model.model must name a model", { key: "model.model" });
    }
    this.settings.set("model", { provider: providerId, model: params.model.trim() });
    const after = this.settings.get();
    return {
      ok: true,
      scope: "main",
      provider: providerId,
      model: after.model.model,
      stale_aux: stalePins(after),
    };
  }
}
