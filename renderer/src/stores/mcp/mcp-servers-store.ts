/**
 * The MCP servers Settings → MCP shows (docs/contract.md §13.5): the list as `mcp.list` gives it,
 * kept live by `mcp.status` events, and the actions on one server. No secret value is ever kept
 * here: `setSecret` passes the caller's value straight to the host and keeps only its hint.
 */
import { createStore, type StoreApi } from "zustand/vanilla";
import type { McpServerView, McpStatus } from "../../../../electron/host/rpc/methods/mcp.js";
import type { ParamsOf, ResultOf } from "../../../../electron/host/rpc/contract.js";
import type { HermesClient } from "../../api/client.js";
import { describeError, HermesRpcError, type ClientErrorReason } from "../../api/rpc-error.js";
import { failedRefresh, latestOnly, loading, ready, type Loadable } from "../loadable.js";

export type McpImportResult = ResultOf<"mcp.import">;
type McpServerDocument = ParamsOf<"mcp.save">["server"];

/** A per-row action on its way (its control shows busy) or the last one's failure (shown in the row). */
export type McpRowAction = { kind: "pending"; what: string } | { kind: "failed"; message: string };

export interface McpServersState {
  servers: Loadable<McpServerView[]>;
  actions: Readonly<Record<string, McpRowAction>>;
  load(): Promise<void>;
  /** Resolves with the saved server; rejects with the host's error (the form shows it by its key). */
  save(id: string, server: McpServerDocument): Promise<McpServerView>;
  /** Rejects with the host's error. */
  setSecret(
    id: string,
    kind: "env" | "header",
    name: string,
    value: string,
  ): Promise<{ hasValue: boolean; keyHint: string | null }>;
  importJson(json: string): Promise<McpImportResult>;
  /** The tail of the server's log; rejects with the host's error. */
  readLog(id: string): Promise<{ text: string; truncated: boolean }>;
  remove(id: string): Promise<void>;
  /** Row actions: their failure lands in `actions[id]`, never as a rejection. */
  setEnabled(id: string, enabled: boolean): Promise<void>;
  restart(id: string): Promise<void>;
  setTool(id: string, tool: string, change: { enabled?: boolean; approval?: "ask" | "allow" }): Promise<void>;
  /**
   * OAuth sign-in (`auth: oauth`): the host opens the browser (desktop) and the row follows the
   * sign-in through the server's `oauth`, where a failed sign-in's reason shows too.
   */
  signIn(id: string): Promise<void>;
  signOut(id: string): Promise<void>;
  clearAction(id: string): void;
  /** An `mcp.status` event: the row changes at once, the rest (tools, counts) on the next load. */
  applyStatus(id: string, status: McpStatus, error?: string): void;
}

/** `mcp.signIn` reasons the host also records as the server's failed sign-in. */
const FAILED_SIGN_IN: ReadonlySet<ClientErrorReason> = new Set(["provider_error", "keychain_unavailable"]);

const upsert = (list: readonly McpServerView[], server: McpServerView): McpServerView[] =>
  list.some((s) => s.id === server.id)
    ? list.map((s) => (s.id === server.id ? server : s))
    : [...list, server];

const without = <T>(record: Readonly<Record<string, T>>, key: string): Record<string, T> => {
  const next = { ...record };
  delete next[key];
  return next;
};

export function createMcpServersStore(client: HermesClient): StoreApi<McpServersState> {
  const nextLoad = latestOnly();
  return createStore<McpServersState>()((set, get) => {
    const listOf = (): McpServerView[] => {
      const current = get().servers;
      return current.kind === "ready" ? current.data : [];
    };
    const put = (server: McpServerView) => {
      nextLoad(); // an older list answer must not bring back the server as it was
      set({ servers: ready(upsert(listOf(), server)) });
    };
    /** Runs one row action, marking it pending, and keeps its failure for the row to show. */
    const rowAction = async (id: string, what: string, work: () => Promise<void>) => {
      set({ actions: { ...get().actions, [id]: { kind: "pending", what } } });
      try {
        await work();
        set({ actions: without(get().actions, id) });
      } catch (err) {
        set({ actions: { ...get().actions, [id]: { kind: "failed", message: describeError(err) } } });
      }
    };
    return {
      servers: loading(),
      actions: {},
      async load() {
        const isLatest = nextLoad();
        try {
          const { servers } = await client.call("mcp.list", {});
          if (isLatest()) set({ servers: ready(servers) });
        } catch (err) {
          if (isLatest()) set({ servers: failedRefresh(get().servers, describeError(err)) });
        }
      },
      async save(id, server) {
        const { server: saved } = await client.call("mcp.save", { id, server });
        put(saved);
        return saved;
      },
      async setSecret(id, kind, name, value) {
        const answer = await client.call("mcp.setSecret", { id, kind, name, value });
        // The secret's hint and the block's secret name list changed: read the server again.
        void get().load();
        return answer;
      },
      async importJson(json) {
        const result = await client.call("mcp.import", { json });
        if (result.added.length > 0) await get().load();
        return result;
      },
      readLog: (id) => client.call("mcp.log", { id }),
      async remove(id) {
        await client.call("mcp.remove", { id });
        nextLoad();
        set({ servers: ready(listOf().filter((s) => s.id !== id)), actions: without(get().actions, id) });
      },
      setEnabled: (id, enabled) =>
        rowAction(id, enabled ? "enable" : "disable", async () => {
          const server = listOf().find((s) => s.id === id);
          if (!server) throw new Error(`The server "${id}" was removed meanwhile.`);
          put((await client.call("mcp.save", { id, server: { ...server.config, enabled } })).server);
        }),
      restart: (id) =>
        rowAction(id, "restart", async () => {
          await client.call("mcp.restart", { id });
          get().applyStatus(id, "starting");
        }),
      setTool: (id, tool, change) =>
        rowAction(id, `tool:${tool}`, async () => {
          put((await client.call("mcp.setTool", { id, tool, ...change })).server);
        }),
      signIn: (id) =>
        rowAction(id, "sign-in", async () => {
          try {
            await client.call("mcp.signIn", { id });
          } catch (err) {
            // These failures are the server's `oauth.error` now; the row shows them there, once.
            if (!(err instanceof HermesRpcError && FAILED_SIGN_IN.has(err.reason))) throw err;
          } finally {
            void get().load();
          }
        }),
      signOut: (id) =>
        rowAction(id, "sign-out", async () => {
          await client.call("mcp.signOut", { id });
          void get().load();
        }),
      clearAction(id) {
        if (get().actions[id]) set({ actions: without(get().actions, id) });
      },
      applyStatus(id, status, error) {
        const list = listOf();
        const server = list.find((s) => s.id === id);
        if (!server) {
          // A server this window doesn't know yet (added by an import or a hand edit).
          void get().load();
          return;
        }
        const next: McpServerView = { ...server, status };
        if (error) next.error = error;
        else delete next.error;
        set({ servers: ready(upsert(list, next)) });
        // A server that became ready has its tools and counts now.
        if (status === "ready") void get().load();
      },
    };
  });
}

const emptyList: McpServerView[] = [];

export const selectMcpServers = (state: McpServersState): McpServerView[] =>
  state.servers.kind === "ready" ? state.servers.data : emptyList;

export const selectReadyMcpServers = (state: McpServersState): McpServerView[] =>
  selectMcpServers(state).filter((s) => s.status === "ready");
