/**
 * Installed plugins, their slash commands, and the user's intents on them (enable/disable,
 * Rescan, Open plugins folder), in slices. A toggle shows its outcome at once and is rolled back
 * when the host refuses it.
 */
import { createStore, type StateCreator, type StoreApi } from "zustand/vanilla";
import type { PluginCommandView, PluginView } from "../../../../electron/host/rpc/methods/plugins.js";
import type { EventPayloads } from "../../../../electron/host/rpc/events.js";
import type { HermesClient } from "../../api/client.js";
import { describeError } from "../../api/rpc-error.js";
import { failedRefresh, latestOnly, loading, ready, type Loadable } from "../loadable.js";
import { createConsentSlice, type PluginConsentSlice } from "./plugin-consent-slice.js";
import { createRuntimeSlice, type PluginRuntimeSlice } from "./plugin-runtime-slice.js";

/** A toggle in flight (with the state the user asked for), or the reason the last one failed. */
export type PluginToggle = { kind: "pending"; enabled: boolean } | { kind: "failed"; message: string };

export type RescanState = { kind: "idle" } | { kind: "running" } | { kind: "failed"; message: string };

/** "shown": the host could not open the folder here (web mode), so the page shows its path. */
export type FolderState =
  | { kind: "idle" }
  | { kind: "opening" }
  | { kind: "opened"; path: string }
  | { kind: "shown"; path: string }
  | { kind: "failed"; message: string };

export interface PluginListSlice {
  plugins: Loadable<PluginView[]>;
  /** Slash commands of loaded plugins; kept from the last answer when a refresh fails. */
  commands: readonly PluginCommandView[];
  load(): Promise<void>;
  /** A `plugins.runtime` event: the plugin's "Today" figures, without re-reading the list. */
  applyRuntimeCounters(counters: EventPayloads["plugins.runtime"]): void;
}

export interface PluginToggleSlice {
  toggles: Readonly<Record<string, PluginToggle>>;
  /** Never rejects: a refusal rolls the row back and lands in `toggles[id]`. */
  setEnabled(id: string, enabled: boolean): Promise<void>;
}

export interface PluginFolderSlice {
  rescan: RescanState;
  folder: FolderState;
  rescanPlugins(): Promise<void>;
  openFolder(): Promise<void>;
}

export type PluginsState = PluginListSlice &
  PluginToggleSlice &
  PluginFolderSlice &
  PluginRuntimeSlice &
  PluginConsentSlice;

type Slice<T> = StateCreator<PluginsState, [], [], T>;

const replacePlugin = (list: PluginView[], plugin: PluginView): PluginView[] =>
  list.map((p) => (p.id === plugin.id ? plugin : p));

/** What a row looks like right after the user flipped it, before the host answers. */
const optimistic = (plugin: PluginView, enabled: boolean): PluginView => {
  const next: PluginView = { ...plugin, enabled, status: enabled ? "loading" : "disabled" };
  delete next.error;
  return next;
};

/** A list fetched while a toggle is in flight must not flip the switch back under the user's finger. */
const withPendingToggles = (list: PluginView[], toggles: PluginsState["toggles"]): PluginView[] =>
  list.map((plugin) => {
    const toggle = toggles[plugin.id];
    return toggle?.kind === "pending" && plugin.enabled !== toggle.enabled
      ? optimistic(plugin, toggle.enabled)
      : plugin;
  });

const withoutKey = <T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> => {
  const next = { ...record };
  delete next[key];
  return next;
};

/** One ticket source shared by every slice that writes `plugins`, so a stale list never lands. */
type NextLoad = ReturnType<typeof latestOnly>;

const createListSlice =
  (client: HermesClient, nextLoad: NextLoad): Slice<PluginListSlice> =>
  (set, get) => ({
    plugins: loading(),
    commands: [],
    async load() {
      const isLatest = nextLoad();
      try {
        const [{ plugins }, commands] = await Promise.all([
          client.call("plugins.list", {}),
          // The list matters more than the commands: a failure here keeps the ones we have.
          client.call("plugins.commands", {}).then(
            (result) => result.commands,
            () => null,
          ),
        ]);
        if (!isLatest()) return;
        set({
          plugins: ready(withPendingToggles(plugins, get().toggles)),
          ...(commands ? { commands } : {}),
        });
        // Enabled plugins still waiting for an answer (at start, or asked while this window was away).
        get().requestPendingConsents(plugins);
      } catch (err) {
        if (isLatest()) set({ plugins: failedRefresh(get().plugins, describeError(err)) });
      }
    },
    applyRuntimeCounters({ id, callsToday, tokensToday }) {
      const current = get().plugins;
      if (current.kind !== "ready") return;
      const plugin = current.data.find((p) => p.id === id);
      if (!plugin?.runtime) return;
      const runtime = { ...plugin.runtime, callsToday, tokensToday };
      set({ plugins: { ...current, data: replacePlugin(current.data, { ...plugin, runtime }) } });
    },
  });

const createToggleSlice =
  (client: HermesClient, nextLoad: NextLoad): Slice<PluginToggleSlice> =>
  (set, get) => ({
    toggles: {},
    async setEnabled(id, enabled) {
      const current = get().plugins;
      const before = current.kind === "ready" ? current.data.find((p) => p.id === id) : undefined;
      if (!before || current.kind !== "ready" || get().toggles[id]?.kind === "pending") return;
      nextLoad(); // a list requested before this intent would show the old state
      set({
        plugins: { ...current, data: replacePlugin(current.data, optimistic(before, enabled)) },
        toggles: { ...get().toggles, [id]: { kind: "pending", enabled } },
      });
      try {
        const { plugin } = await client.call("plugins.setEnabled", { id, enabled });
        nextLoad();
        const now = get().plugins;
        set({
          plugins: now.kind === "ready" ? { ...now, data: replacePlugin(now.data, plugin) } : now,
          toggles: withoutKey(get().toggles, id),
        });
      } catch (err) {
        nextLoad();
        const now = get().plugins;
        const verb = enabled ? "enable" : "disable";
        set({
          plugins: now.kind === "ready" ? { ...now, data: replacePlugin(now.data, before) } : now,
          toggles: {
            ...get().toggles,
            [id]: { kind: "failed", message: `Couldn't ${verb} ${before.name}: ${describeError(err)}` },
          },
        });
      }
      // Commands come and go with the plugin; the list also picks up what finished loading since.
      await get().load();
    },
  });

const createFolderSlice =
  (client: HermesClient, nextLoad: NextLoad): Slice<PluginFolderSlice> =>
  (set, get) => ({
    rescan: { kind: "idle" },
    folder: { kind: "idle" },
    async rescanPlugins() {
      if (get().rescan.kind === "running") return;
      set({ rescan: { kind: "running" } });
      try {
        const { plugins } = await client.call("plugins.rescan", {});
        nextLoad();
        set({ plugins: ready(withPendingToggles(plugins, get().toggles)), rescan: { kind: "idle" } });
      } catch (err) {
        set({
          rescan: { kind: "failed", message: `Couldn't rescan the plugin folders: ${describeError(err)}` },
        });
        return;
      }
      await get().load();
    },
    async openFolder() {
      set({ folder: { kind: "opening" } });
      try {
        const { path, opened } = await client.call("plugins.openFolder", {});
        set({ folder: opened ? { kind: "opened", path } : { kind: "shown", path } });
      } catch (err) {
        set({
          folder: { kind: "failed", message: `Couldn't open the plugins folder: ${describeError(err)}` },
        });
      }
    },
  });

export function createPluginsStore(client: HermesClient): StoreApi<PluginsState> {
  const nextLoad = latestOnly();
  return createStore<PluginsState>()((...a) => ({
    ...createListSlice(client, nextLoad)(...a),
    ...createToggleSlice(client, nextLoad)(...a),
    ...createFolderSlice(client, nextLoad)(...a),
    ...createRuntimeSlice<PluginsState>(client)(...a),
    ...createConsentSlice<PluginsState>(client, nextLoad)(...a),
  }));
}

const noCommands: readonly PluginCommandView[] = [];

/** The slash commands one plugin registered. Use with `useShallow`: it builds a new array. */
export const selectCommandsOf =
  (pluginId: string) =>
  (state: PluginsState): readonly PluginCommandView[] => {
    const commands = state.commands.filter((c) => c.pluginId === pluginId);
    return commands.length > 0 ? commands : noCommands;
  };
