import { method, noParams, type EmptyParams } from "../define.js";

/** The settings as the renderer sees them: config.yaml's document (it never holds a secret). */
export type PublicSettings = Record<string, unknown>;

export interface SettingsSetParams {
  /** Dotted key, e.g. `display.busy_input_mode`. */
  key: string;
  value: unknown;
}

export const settingsMethods = {
  "settings.get": method<EmptyParams, PublicSettings>(noParams),
  "settings.set": method<SettingsSetParams, { ok: true }>({
    type: "object",
    additionalProperties: false,
    required: ["key", "value"],
    properties: {
      key: { type: "string", pattern: "^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$", maxLength: 256 },
      value: {},
    },
  }),
};
