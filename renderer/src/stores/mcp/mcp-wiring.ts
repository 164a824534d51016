/**
 * Keeps the MCP stores fresh: `mcp.status` changes a row at once, `mcp.changed` (and a saved
 * setting) re-reads the list, request events go to the requests store, and a reconnect reads
 * both again (events sent while the socket was down are lost).
 */
import type { StoreApi } from "zustand/vanilla";
import type { HermesClient } from "../../api/client.js";
import type { McpRequestsState } from "./mcp-requests-store.js";
import type { McpServersState } from "./mcp-servers-store.js";

export function connectMcpStores(
  client: HermesClient,
  servers: StoreApi<McpServersState>,
  requests: StoreApi<McpRequestsState>,
): () => void {
  // The list loads when Settings → MCP (or the attach menu) first asks; until then events only mark it stale.
  const listLoaded = () => servers.getState().servers.kind !== "loading";
  const stopEvents = client.onEvent((event) => {
    if (event.type === "mcp.status") {
      if (listLoaded())
        servers.getState().applyStatus(event.payload.id, event.payload.status, event.payload.error);
      return;
    }
    if (event.type === "mcp.changed" || event.type === "settings.changed") {
      if (listLoaded()) void servers.getState().load();
      return;
    }
    requests.getState().handleEvent(event);
  });
  let lastStatus = client.status;
  const stopStatus = client.onStatusChange((status) => {
    if (status === "connected" && lastStatus === "reconnecting") {
      void requests.getState().loadPending();
      if (listLoaded()) void servers.getState().load();
    }
    lastStatus = status;
  });
  void requests.getState().loadPending();
  return () => {
    stopEvents();
    stopStatus();
  };
}
