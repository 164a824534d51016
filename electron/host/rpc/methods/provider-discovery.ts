/** `providers.discover` (docs/contract.md §6.1.1): local model servers found on this machine. */
import { method, noParams } from "../define.js";

export const LOCAL_SERVER_KINDS = ["ollama", "lmstudio", "llamacpp", "vllm", "jan"] as const;
export type LocalServerKind = (typeof LOCAL_SERVER_KINDS)[number];

export interface DiscoveredModel {
  id: string;
  /** Tokens, where the server says it. */
  context_window?: number;
  /** Whether the model takes images, where the server says it. */
  vision?: boolean;
}

export interface DiscoveredServer {
  kind: LocalServerKind;
  base_url: string;
  /** `not_model_server`: something answers on that port, but not a model server's API (never added). */
  status: "found" | "not_model_server";
  models: DiscoveredModel[];
  /** The provider id this server has (when added) or would get. */
  providerId: string;
  /** Whether a provider with this base URL is configured already. */
  added: boolean;
  /** The provider's name when added, else the name it would be added under. */
  name: string;
}

export const providerDiscoveryMethods = {
  /** Probes only; adding a server found is `providers.save` with no key. */
  "providers.discover": method(noParams).returns<{ servers: DiscoveredServer[] }>(),
};
