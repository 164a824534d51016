/** Where the settings live in the data home, and whether that file can be read at all. */
import fs from "node:fs";
import path from "node:path";
import { ConfigUnreadableError } from "./config-errors.js";

export const CONFIG_FILE_NAME = "config.yaml";

/**
 * Why the settings file can't be read (a folder, no permission), or null when it can or doesn't
 * exist yet. A cheap look a launcher can take before it announces itself; the settings store
 * still checks on its own when it opens the file.
 */
export function findUnreadableConfig(home: string): ConfigUnreadableError | null {
  const file = path.join(home, CONFIG_FILE_NAME);
  try {
    fs.closeSync(fs.openSync(file, "r"));
    if (fs.statSync(file).isDirectory()) return new ConfigUnreadableError(file, "EISDIR");
    return null;
  } catch (error) {
    return ConfigUnreadableError.from(file, error);
  }
}
