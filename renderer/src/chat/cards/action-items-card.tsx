/**
 * The `action-items` plugin's card under the transcript: the open chat's action items, recorded
 * by the plugin's background fork after replies that made commitments, each with a box to tick it
 * off. Shown only while the plugin is loaded and the chat has items.
 */
import { ListChecks } from "lucide-react";
import { useEffect } from "react";
import { useStore } from "zustand";
import { ACTION_ITEMS_PLUGIN } from "../../stores/chat/action-items-store.js";
import { usePlugins, useStores } from "../../stores/stores-context.js";
import { CardError } from "./card-error.js";

export function ActionItemsCard({ sessionId }: { sessionId: string | null }) {
  const stores = useStores();
  const loaded = usePlugins(
    (s) =>
      s.plugins.kind === "ready" &&
      s.plugins.data.some((p) => p.id === ACTION_ITEMS_PLUGIN && p.status === "loaded"),
  );
  const items = useStore(stores.actionItems, (s) => s.items);
  const error = useStore(stores.actionItems, (s) => s.error);
  const setDone = useStore(stores.actionItems, (s) => s.setDone);

  useEffect(() => {
    void stores.actionItems.getState().show(loaded ? sessionId : null);
  }, [loaded, sessionId, stores]);

  if (!loaded || (items.length === 0 && !error)) return null;
  const open = items.filter((item) => !item.done).length;
  return (
    <section className="plugin-card action-items-card" aria-label="Action items">
      <header className="plugin-card-header">
        <ListChecks size={14} aria-hidden="true" />
        <span>Action items</span>
        <span className="plugin-card-note">
          {open === 0 ? "all done" : `${open} open`} · action-items plugin
        </span>
      </header>
      <ul className="action-items-list">
        {items.map((item) => (
          <li key={item.id} data-done={item.done || undefined}>
            <label>
              <input
                type="checkbox"
                checked={item.done}
                onChange={(e) => void setDone(item.id, e.target.checked)}
              />
              <span className="action-item-text">{item.text}</span>
              {item.owner || item.due ? (
                <span className="action-item-meta">{[item.owner, item.due].filter(Boolean).join(" · ")}</span>
              ) : null}
            </label>
          </li>
        ))}
      </ul>
      <CardError error={error} />
    </section>
  );
}
