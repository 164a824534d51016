/**
 * The bundled `action-items` plugin's items for the open chat (its card under the transcript):
 * read over plugin RPC (`plugin.action-items.items.list`), ticked with `items.setDone`, and read
 * again whenever the plugin says `items.changed` for that chat. Nothing here runs while the plugin
 * is off: the card asks only when the plugins list shows it loaded.
 */
import { createStore, type StoreApi } from "zustand/vanilla";
import type { HermesClient, Unsubscribe } from "../../api/client.js";
import { describeError } from "../../api/rpc-error.js";

export const ACTION_ITEMS_PLUGIN = "action-items";

export interface ActionItem {
  id: string;
  text: string;
  owner: string | null;
  due: string | null;
  done: boolean;
}

export interface ActionItemsState {
  /** The chat the items are of; null when none is shown. */
  sessionId: string | null;
  items: readonly ActionItem[];
  error: string | null;
  /** Shows the items of `sessionId` (null: none) and keeps them current. */
  show(sessionId: string | null): Promise<void>;
  setDone(id: string, done: boolean): Promise<void>;
}

function itemsOf(result: unknown): ActionItem[] {
  const list = (result as { items?: unknown } | null)?.items;
  if (!Array.isArray(list)) return [];
  return list
    .filter((i): i is Record<string, unknown> => typeof i === "object" && i !== null)
    .filter((i) => typeof i.id === "string" && typeof i.text === "string")
    .map((i) => ({
      id: i.id as string,
      text: i.text as string,
      owner: typeof i.owner === "string" ? i.owner : null,
      due: typeof i.due === "string" ? i.due : null,
      done: i.done === true,
    }));
}

export function createActionItemsStore(client: HermesClient): {
  store: StoreApi<ActionItemsState>;
  connect(): Unsubscribe;
} {
  const method = (name: string) => `plugin.${ACTION_ITEMS_PLUGIN}.${name}`;
  const store = createStore<ActionItemsState>()((set, get) => {
    const load = async (sessionId: string) => {
      try {
        const result = await client.callPlugin(method("items.list"), { session_id: sessionId });
        if (get().sessionId === sessionId) set({ items: itemsOf(result), error: null });
      } catch (err) {
        if (get().sessionId === sessionId)
          set({ error: `Couldn't read the action items: ${describeError(err)}` });
      }
    };
    return {
      sessionId: null,
      items: [],
      error: null,
      async show(sessionId) {
        if (sessionId !== get().sessionId) set({ sessionId, items: [], error: null });
        if (sessionId) await load(sessionId);
      },
      async setDone(id, done) {
        const sessionId = get().sessionId;
        if (!sessionId) return;
        // Ticked at once; the plugin's items.changed (or a failure) settles it.
        set({ items: get().items.map((item) => (item.id === id ? { ...item, done } : item)) });
        try {
          await client.callPlugin(method("items.setDone"), { session_id: sessionId, id, done });
        } catch (err) {
          set({ error: `Couldn't update the item: ${describeError(err)}` });
          await load(sessionId);
        }
      },
    };
  });
  const connect = () =>
    client.onPluginEvent((event) => {
      const { sessionId } = store.getState();
      if (
        event.pluginId === ACTION_ITEMS_PLUGIN &&
        event.event === "items.changed" &&
        event.sessionId === sessionId
      )
        void store.getState().show(sessionId);
    });
  return { store, connect };
}
