/**
 * Getting set up in a minute (docs/contract.md §3.1, §6.1.1): local model servers found by
 * `providers.discover`, added with one click (no key; the main model is set when none is), and
 * the import of an existing Hermes set-up (detect, preview, import, restore). No key value ever
 * reaches this store: the preview carries each key's last 4 characters only.
 */
import { createStore, type StateCreator, type StoreApi } from "zustand/vanilla";
import type { DiscoveredServer } from "../../../../electron/host/rpc/methods/provider-discovery.js";
import type { ImportPreview } from "../../../../electron/host/rpc/methods/settings-import.js";
import type { HermesClient } from "../../api/client.js";
import { describeError } from "../../api/rpc-error.js";
import type { MainModelState } from "./main-model-store.js";
import type { ProvidersState } from "./providers-store.js";

export type { DiscoveredServer, ImportPreview };

export type ScanState =
  | { kind: "idle" }
  | { kind: "scanning"; servers: readonly DiscoveredServer[] }
  | { kind: "done"; servers: readonly DiscoveredServer[] }
  | { kind: "failed"; message: string; servers: readonly DiscoveredServer[] };

export type AddState = { kind: "adding" } | { kind: "failed"; message: string };

export interface LocalServersSlice {
  scan: ScanState;
  /** By provider id. */
  adds: Readonly<Record<string, AddState>>;
  /** `quiet`: a scan nobody asked for (first run) says nothing when it fails. */
  scanLocalServers(options?: { quiet?: boolean }): Promise<void>;
  /** Adds the server as a provider without a key; makes its first model the main model when none is set. */
  addLocalServer(server: DiscoveredServer): Promise<void>;
}

export type PreviewState =
  | { kind: "idle" }
  | { kind: "loading" }
  | { kind: "ready"; preview: ImportPreview }
  | { kind: "failed"; message: string };

export type ImportOutcome =
  | { kind: "idle" }
  | { kind: "working"; action: "import" | "restore" }
  | { kind: "imported"; backup: string }
  | { kind: "restored" }
  | { kind: "failed"; message: string };

export interface HermesImportSlice {
  /** Where a Hermes config was found (null: none), and whether an import can be undone; null until asked. */
  importSource: { source: string | null; canRestore: boolean } | null;
  preview: PreviewState;
  importOutcome: ImportOutcome;
  detectImport(): Promise<void>;
  loadPreview(): Promise<void>;
  /** `keys`: the `.env` variables whose keys go to the keychain. */
  applyImport(keys: readonly string[]): Promise<void>;
  restoreSettings(): Promise<void>;
}

export type SetupState = LocalServersSlice & HermesImportSlice;

export interface SetupStoreDeps {
  providers: StoreApi<ProvidersState>;
  mainModel: StoreApi<MainModelState>;
  /** Reloads what the settings feed (providers, models, plugins: pending consents show then). */
  refresh(): Promise<void>;
}

type Slice<T> = StateCreator<SetupState, [], [], T>;

const markAdded = (servers: readonly DiscoveredServer[], id: string): DiscoveredServer[] =>
  servers.map((s) => (s.providerId === id ? { ...s, added: true } : s));

const createLocalServersSlice =
  (client: HermesClient, deps: SetupStoreDeps): Slice<LocalServersSlice> =>
  (set, get) => ({
    scan: { kind: "idle" },
    adds: {},
    async scanLocalServers({ quiet = false } = {}) {
      const before = get().scan;
      const servers = before.kind === "idle" ? [] : before.servers;
      set({ scan: { kind: "scanning", servers } });
      try {
        const answer = await client.call("providers.discover", {});
        set({ scan: { kind: "done", servers: answer.servers } });
      } catch (err) {
        set({ scan: quiet ? before : { kind: "failed", message: describeError(err), servers } });
      }
    },
    async addLocalServer(server) {
      const id = server.providerId;
      set({ adds: { ...get().adds, [id]: { kind: "adding" } } });
      try {
        await deps.providers
          .getState()
          .save({ id, create: true, name: server.name, base_url: server.base_url });
        const first = server.models[0];
        const mainModel = deps.mainModel.getState();
        if (first && mainModel.current.kind === "ready" && mainModel.current.data === null) {
          await mainModel.save({ provider: id, model: first.id });
        }
        const adds = { ...get().adds };
        delete adds[id];
        const scan = get().scan;
        set({ adds, scan: scan.kind === "idle" ? scan : { ...scan, servers: markAdded(scan.servers, id) } });
      } catch (err) {
        set({ adds: { ...get().adds, [id]: { kind: "failed", message: describeError(err) } } });
      }
    },
  });

const createHermesImportSlice =
  (client: HermesClient, deps: SetupStoreDeps): Slice<HermesImportSlice> =>
  (set, get) => ({
    importSource: null,
    preview: { kind: "idle" },
    importOutcome: { kind: "idle" },
    async detectImport() {
      try {
        set({ importSource: await client.call("settings.import.detect", {}) });
      } catch {
        // Nothing to offer when the host can't say.
        set({ importSource: { source: null, canRestore: false } });
      }
    },
    async loadPreview() {
      set({ preview: { kind: "loading" }, importOutcome: { kind: "idle" } });
      try {
        set({ preview: { kind: "ready", preview: await client.call("settings.import.preview", {}) } });
      } catch (err) {
        set({ preview: { kind: "failed", message: describeError(err) } });
      }
    },
    async applyImport(keys) {
      set({ importOutcome: { kind: "working", action: "import" } });
      try {
        const { backup } = await client.call("settings.import.apply", { keys: [...keys] });
        set({
          importOutcome: { kind: "imported", backup },
          preview: { kind: "idle" },
          importSource: { source: get().importSource?.source ?? null, canRestore: true },
        });
        // The import is done whatever a reload says; each store shows its own load failure.
        await deps.refresh().catch(() => undefined);
      } catch (err) {
        set({ importOutcome: { kind: "failed", message: describeError(err) } });
      }
    },
    async restoreSettings() {
      set({ importOutcome: { kind: "working", action: "restore" } });
      try {
        await client.call("settings.import.undo", {});
        set({
          importOutcome: { kind: "restored" },
          importSource: { source: get().importSource?.source ?? null, canRestore: false },
        });
        // The import is done whatever a reload says; each store shows its own load failure.
        await deps.refresh().catch(() => undefined);
      } catch (err) {
        set({ importOutcome: { kind: "failed", message: describeError(err) } });
      }
    },
  });

export function createSetupStore(client: HermesClient, deps: SetupStoreDeps): StoreApi<SetupState> {
  return createStore<SetupState>()((...a) => ({
    ...createLocalServersSlice(client, deps)(...a),
    ...createHermesImportSlice(client, deps)(...a),
  }));
}
