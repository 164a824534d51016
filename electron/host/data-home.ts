/**
 * Where the app keeps its data (docs/contract.md §2): `--home`, else `$HERMES_DESKTOP_HOME`, else the same folder
 * Electron's `app.getPath("userData")` gives, so web mode and the desktop app share one home.
 */
import { homedir, platform } from "node:os";
import { join } from "node:path";

export const appFolderName = "Hermes Desktop";

export function platformAppDataDir(env: NodeJS.ProcessEnv = process.env, os = platform()): string {
  if (os === "win32") return env.APPDATA ?? join(homedir(), "AppData", "Roaming");
  if (os === "darwin") return join(homedir(), "Library", "Application Support");
  return env.XDG_CONFIG_HOME || join(homedir(), ".config");
}

export function resolveDataHome(cliHome: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (cliHome) return cliHome;
  if (env.HERMES_DESKTOP_HOME) return env.HERMES_DESKTOP_HOME;
  return join(platformAppDataDir(env), appFolderName);
}
