/** The `plugins.*` RPC handlers (docs/contract.md §11) over the PluginManager. */
import { mkdirSync } from "node:fs";
import type { Handler } from "../../rpc/router.js";
import type { ConsentService } from "../capabilities/consent-service.js";
import type { PluginManager } from "./plugin-manager.js";

type PluginMethod =
  | "plugins.list"
  | "plugins.setEnabled"
  | "plugins.restart"
  | "plugins.rescan"
  | "plugins.commands"
  | "plugins.openFolder"
  | "plugins.consent"
  | "plugins.revoke";

/** Opens a folder in the OS file manager; the desktop shell passes Electron's `shell.openPath`. */
export type OpenFolder = (path: string) => Promise<boolean>;

/**
 * `startNow`: a call that acts on plugins wants them started now, past the host's start gate (a
 * window's first screen only reads the list and the commands, which wait for the gate).
 */
export function pluginHandlers(
  manager: PluginManager,
  consent: ConsentService,
  openFolder?: OpenFolder,
  startNow: () => void = () => undefined,
): { [M in PluginMethod]: Handler<M> } {
  const acting = (): Promise<void> => {
    startNow();
    return manager.ready();
  };
  return {
    "plugins.consent": async ({ id, grant }) => {
      await acting();
      return { plugin: consent.consent(id, grant) };
    },
    "plugins.revoke": async ({ id, capability }) => {
      await acting();
      return { plugin: consent.revoke(id, capability) };
    },
    "plugins.list": async () => {
      await manager.ready();
      return { plugins: manager.list() };
    },
    "plugins.setEnabled": async ({ id, enabled }) => {
      await acting();
      return { plugin: await manager.setEnabled(id, enabled) };
    },
    "plugins.restart": async ({ id }) => {
      await acting();
      return { plugin: await manager.restart(id) };
    },
    "plugins.rescan": async () => {
      await acting();
      return { plugins: await manager.rescan() };
    },
    "plugins.commands": async () => {
      await manager.ready();
      return { commands: manager.commands() };
    },
    "plugins.openFolder": async () => {
      mkdirSync(manager.userDir, { recursive: true });
      const opened = openFolder ? await openFolder(manager.userDir).catch(() => false) : false;
      return { path: manager.userDir, opened };
    },
  };
}
