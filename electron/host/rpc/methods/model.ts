import { Type } from "@sinclair/typebox";
import { method, noParams } from "../define.js";
import { Enum } from "../schema-builders.js";

export const RESET_ALL_TASKS = "__reset__";

export interface ModelSetMainParams {
  scope: "main";
  provider: string;
  model: string;
}

export interface ModelSetAuxiliaryParams {
  scope: "auxiliary";
  /** A slot key, or `__reset__` for every slot. */
  task: string;
  /** `auto` makes the slot follow its base or the main model again. */
  provider: string;
  model: string;
  base_url?: string;
}

/** Every slot back to auto: `provider` ("auto") and `model` ("") may be left out. */
export interface ModelResetAllParams {
  scope: "auxiliary";
  task: typeof RESET_ALL_TASKS;
  provider?: "auto" | "main";
  model?: "";
}

export type ModelSetParams = ModelSetMainParams | ModelSetAuxiliaryParams | ModelResetAllParams;

export const isResetAll = (params: ModelSetParams): params is ModelResetAllParams =>
  params.scope === "auxiliary" && params.task === RESET_ALL_TASKS;

export interface StaleAuxSlot {
  task: string;
  provider: string;
  model: string;
}

/** Where a slot's effective route comes from (docs/contract.md §6.4's steps). */
export type AuxiliaryRouteSource = "pin" | "inherited" | "defaults" | "main";

/** One row of `model.auxiliary.list` / `GET /api/model/auxiliary` (docs/contract.md §11). */
export interface AuxiliaryTaskRow {
  task: string;
  /** The user's block as written ("auto" when absent). */
  provider: string;
  model: string;
  base_url: string;
  /** Seconds, after defaults and the base (docs/contract.md §6.4 precedence). */
  timeout: number;
  label: string;
  hint: string;
  /** The owning plugin's id, for a plugin slot. */
  plugin?: string;
  inherit_from: string | null;
  effective: { provider: string; model: string; base_url: string };
  stale: boolean;
  source: AuxiliaryRouteSource;
  /** The slots the route passes through, this one first (more than one when inherited). */
  chain: string[];
  /** Why the route can't be called right now (a removed provider), with what to do; else null. */
  broken: string | null;
  /**
   * Why "Follow <Base>" is not available (the base's route is a built-in's and the plugin lacks
   * `llm.task_override`, docs/contract.md §6.4); null when it is or the slot has no base.
   */
  follow_blocked: string | null;
}

export type ModelSetResult =
  | { ok: true; scope: "main"; provider: string; model: string; stale_aux: StaleAuxSlot[] }
  | { ok: true; scope: "auxiliary"; tasks: AuxiliaryTaskRow[] };

/**
 * The wire shape all three take: a slot's route or the main model names provider and model;
 * reset-all needs neither (the `if/then/else`, which `ModelSetParams` spells as a union).
 */
const modelSetParams = Type.Object(
  {
    scope: Enum(["main", "auxiliary"]),
    task: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    provider: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    model: Type.Optional(Type.String({ maxLength: 512 })),
    base_url: Type.Optional(Type.String({ maxLength: 2048 })),
  },
  {
    additionalProperties: false,
    if: {
      required: ["task"],
      properties: { scope: { const: "auxiliary" }, task: { const: RESET_ALL_TASKS } },
    },
    then: {
      properties: { provider: { enum: ["auto", "main"] }, model: { const: "" } },
      not: { required: ["base_url"] },
    },
    else: {
      required: ["provider", "model"],
      if: { properties: { scope: { const: "auxiliary" } } },
      then: { required: ["task"] },
    },
  },
);

export const modelMethods = {
  "model.auxiliary.list": method(noParams).returns<{ tasks: AuxiliaryTaskRow[] }>(),
  "model.set": method(modelSetParams).narrowedTo<ModelSetParams>().returns<ModelSetResult>(),
};
