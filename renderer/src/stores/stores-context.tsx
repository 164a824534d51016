/** Gives components the app's stores, and typed hooks to select from them. */
import { createContext, useContext, type ReactNode } from "react";
import { useStore } from "zustand";
import type { AppStores } from "./app-stores.js";
import type { AuxiliaryState } from "./settings/auxiliary-store.js";
import type { BackupsState } from "./settings/backups-store.js";
import type { HostState } from "./host-store.js";
import type { McpCatalogState } from "./mcp/mcp-catalog-store.js";
import type { McpRequestsState } from "./mcp/mcp-requests-store.js";
import type { McpServersState } from "./mcp/mcp-servers-store.js";
import type { MainModelState } from "./settings/main-model-store.js";
import type { NavigationState } from "./navigation-store.js";
import type { PluginsState } from "./plugins/plugins-store.js";
import type { ProvidersState } from "./settings/providers-store.js";
import type { SetupState } from "./settings/setup-store.js";

const StoresContext = createContext<AppStores | null>(null);

export function StoresProvider({ stores, children }: { stores: AppStores; children: ReactNode }) {
  return <StoresContext.Provider value={stores}>{children}</StoresContext.Provider>;
}

export function useStores(): AppStores {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error("StoresProvider is missing: wrap the app in <StoresProvider stores={…}>.");
  return stores;
}

export const useHost = <T,>(selector: (state: HostState) => T): T => useStore(useStores().host, selector);
export const useProviders = <T,>(selector: (state: ProvidersState) => T): T =>
  useStore(useStores().providers, selector);
export const useMainModel = <T,>(selector: (state: MainModelState) => T): T =>
  useStore(useStores().mainModel, selector);
export const useNavigation = <T,>(selector: (state: NavigationState) => T): T =>
  useStore(useStores().navigation, selector);
export const usePlugins = <T,>(selector: (state: PluginsState) => T): T =>
  useStore(useStores().plugins, selector);
export const useAuxiliary = <T,>(selector: (state: AuxiliaryState) => T): T =>
  useStore(useStores().auxiliary, selector);
export const useSetup = <T,>(selector: (state: SetupState) => T): T => useStore(useStores().setup, selector);
export const useMcpServers = <T,>(selector: (state: McpServersState) => T): T =>
  useStore(useStores().mcpServers, selector);
export const useMcpRequests = <T,>(selector: (state: McpRequestsState) => T): T =>
  useStore(useStores().mcpRequests, selector);
export const useMcpCatalog = <T,>(selector: (state: McpCatalogState) => T): T =>
  useStore(useStores().mcpCatalog, selector);
export const useBackups = <T,>(selector: (state: BackupsState) => T): T =>
  useStore(useStores().backups, selector);
