/**
 * The app's stores, made once per client, and their wiring to the host: the first load, a
 * refresh on every `settings.changed` event (host facts on `host.changed`), and a full refresh after a reconnect (events sent
 * while the socket was down are lost).
 */
import type { StoreApi } from "zustand/vanilla";
import type { HermesClient } from "../api/client.js";
import { connectPageFrame, type PageScope } from "../plugins/page-bridge.js";
import { createActionItemsStore, type ActionItemsState } from "./chat/action-items-store.js";
import { createAuxiliaryStore, type AuxiliaryState } from "./settings/auxiliary-store.js";
import { createBackupsStore, type BackupsState } from "./settings/backups-store.js";
import { createModelSettingsStore, type ModelSettingsState } from "./settings/model-settings-store.js";
import {
  connectChatStores,
  createChatStores,
  type ChatStores,
  type ChatStoresOptions,
} from "./chat/chat-stores.js";
import { connectEventTopics } from "./event-topics.js";
import { createHostStore, type HostState } from "./host-store.js";
import { createMcpCatalogStore, type McpCatalogState } from "./mcp/mcp-catalog-store.js";
import { createMcpRequestsStore, type McpRequestsState } from "./mcp/mcp-requests-store.js";
import { createMcpServersStore, type McpServersState } from "./mcp/mcp-servers-store.js";
import { connectMcpStores } from "./mcp/mcp-wiring.js";
import { createMainModelStore, type MainModelState } from "./settings/main-model-store.js";
import { createNavigationStore, type NavigationState } from "./navigation-store.js";
import { createPluginsStore, type PluginsState } from "./plugins/plugins-store.js";
import { createProvidersStore, type ProvidersState } from "./settings/providers-store.js";
import { createSetupStore, type SetupState } from "./settings/setup-store.js";

export interface AppStores {
  host: StoreApi<HostState>;
  providers: StoreApi<ProvidersState>;
  mainModel: StoreApi<MainModelState>;
  auxiliary: StoreApi<AuxiliaryState>;
  modelSettings: StoreApi<ModelSettingsState>;
  navigation: StoreApi<NavigationState>;
  plugins: StoreApi<PluginsState>;
  /** The session store's backups (Settings → Chat). */
  backups: StoreApi<BackupsState>;
  chat: ChatStores;
  /** Relays one plugin page frame's bridge (docs/contract.md §8); returns the function that stops it. */
  connectPageFrame(frame: HTMLIFrameElement, scope: PageScope): () => void;
  /** A page frame's token for (plugin, session) (`plugins.pageSession`), and the function that revokes it. */
  openPageSession(pluginId: string, sessionId: string | null): Promise<{ token: string; end(): void }>;
  /** The `action-items` plugin's items of the open chat (its card under the transcript). */
  actionItems: StoreApi<ActionItemsState>;
  /** Starts listening to `action-items`' events; returns the function that stops it. */
  connectActionItems(): () => void;
  /** Local servers found and the Hermes import (first run, Settings → Providers / General). */
  setup: StoreApi<SetupState>;
  /** MCP servers (Settings → MCP) and what they wait on the person for (the chat's cards). */
  mcpServers: StoreApi<McpServersState>;
  mcpRequests: StoreApi<McpRequestsState>;
  /** Ready servers' prompts and resources, for the composer. */
  mcpCatalog: StoreApi<McpCatalogState>;
}

export function createAppStores(client: HermesClient, options: { chat?: ChatStoresOptions } = {}): AppStores {
  const mainModel = createMainModelStore(client);
  const providers = createProvidersStore(client, {
    onProviderChanged: (id) => mainModel.getState().forgetModels(id),
  });
  const actionItems = createActionItemsStore(client);
  const stores: AppStores = {
    host: createHostStore(client),
    providers,
    mainModel,
    auxiliary: createAuxiliaryStore(client),
    modelSettings: createModelSettingsStore(client),
    navigation: createNavigationStore(),
    plugins: createPluginsStore(client),
    backups: createBackupsStore(client),
    chat: createChatStores(client, options.chat),
    connectPageFrame: (frame, scope) => connectPageFrame(client, window, frame, scope),
    openPageSession: async (pluginId, sessionId) => {
      const { token } = await client.call("plugins.pageSession", { id: pluginId, sessionId });
      return {
        token,
        end: () => void client.call("plugins.pageSessionEnd", { token }).catch(() => undefined),
      };
    },
    actionItems: actionItems.store,
    connectActionItems: actionItems.connect,
    setup: createSetupStore(client, { providers, mainModel, refresh: () => refreshFromHost(stores) }),
    mcpServers: createMcpServersStore(client),
    mcpRequests: createMcpRequestsStore(client),
    mcpCatalog: createMcpCatalogStore(client),
  };
  return stores;
}

export function refreshFromHost(stores: AppStores): Promise<void> {
  return Promise.all([
    stores.host.getState().load(),
    stores.providers.getState().load(),
    stores.mainModel.getState().loadCurrent(),
    stores.plugins.getState().load(),
    stores.auxiliary.getState().load(),
    stores.modelSettings.getState().refreshIfLoaded(),
    stores.actionItems.getState().show(stores.actionItems.getState().sessionId),
  ]).then(() => undefined);
}

/** Loads everything once and keeps it fresh; returns the function that stops listening. */
export function connectStoresToHost(client: HermesClient, stores: AppStores): () => void {
  const stopEvents = client.onEvent((event) => {
    if (event.type === "settings.changed") void refreshFromHost(stores);
    // The host learned something it reports in host.info (e.g. the keychain is unavailable).
    if (event.type === "host.changed") void stores.host.getState().load();
    // A plugin finished loading, failed or was unloaded (also by a hand edit of config.yaml).
    // An enabled plugin asks for capabilities: its consent screen shows at once.
    if (event.type === "plugin.consent_required") {
      stores.plugins.getState().requestConsent(event.payload);
      // The screen names the plugin and its version: the list may not know it yet.
      void stores.plugins.getState().load();
    }
    if (event.type === "plugins.runtime") stores.plugins.getState().applyRuntimeCounters(event.payload);
    if (event.type === "plugins.changed") {
      void stores.plugins.getState().load();
      // A plugin's slots come and go with it.
      void stores.auxiliary.getState().load();
    }
  });
  let lastStatus = client.status;
  const stopStatus = client.onStatusChange((status) => {
    stores.host.getState().setConnection(status);
    if (status === "connected" && lastStatus === "reconnecting") void refreshFromHost(stores);
    lastStatus = status;
  });
  const stopChat = connectChatStores(client, stores.chat);
  const stopTopics = connectEventTopics(client, stores);
  const stopActionItems = stores.connectActionItems();
  const stopMcp = connectMcpStores(client, stores.mcpServers, stores.mcpRequests);
  void refreshFromHost(stores);
  // The window opens on the chat, whose list of chats is asked for with everything else rather
  // than after the providers' answer (which decides between the chat and the welcome).
  if (stores.navigation.getState().screen.name === "chat")
    void stores.chat.sessions.getState().ensureLoaded();
  return () => {
    stopMcp();
    stopActionItems();
    stopEvents();
    stopStatus();
    stopChat();
    stopTopics();
  };
}
