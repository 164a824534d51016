import { method } from "../define.js";

export interface ModelSetMainParams {
  scope: "main";
  provider: string;
  model: string;
}

export interface ModelSetAuxiliaryParams {
  scope: "auxiliary";
  /** A slot key, or `__reset__` for every slot. */
  task: string;
  provider: string;
  model: string;
  base_url?: string;
}

export type ModelSetParams = ModelSetMainParams | ModelSetAuxiliaryParams;

export interface StaleAuxSlot {
  task: string;
  provider: string;
  model: string;
}

export type ModelSetResult =
  | { ok: true; scope: "main"; provider: string; model: string; stale_aux: StaleAuxSlot[] }
  | { ok: true; scope: "auxiliary"; tasks: unknown[] };

export const modelMethods = {
  "model.set": method<ModelSetParams, ModelSetResult>({
    type: "object",
    required: ["scope", "provider", "model"],
    properties: {
      scope: { enum: ["main", "auxiliary"] },
      task: { type: "string", minLength: 1, maxLength: 64 },
      provider: { type: "string", minLength: 1, maxLength: 64 },
      model: { type: "string", maxLength: 512 },
      base_url: { type: "string", maxLength: 2048 },
    },
    additionalProperties: false,
    if: { properties: { scope: { const: "auxiliary" } } },
    then: { required: ["task"] },
  }),
};
