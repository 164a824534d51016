import { Fragment, type ReactNode } from "react";
import type { Loadable } from "../stores/loadable.js";
import { LoadableView } from "../ui/loadable-view.js";

/**
 * A settings page's list of things (providers, plugins): loading, a load error with Retry, a
 * warning when a refresh failed, then either the empty-state card or one row per item. The pages
 * differ only in their words and rows, so the states are wired once here.
 */
export function SettingsList<T extends { id: string }>({
  value,
  loadingText,
  failureText,
  onRetry,
  empty,
  label,
  renderRow,
}: {
  value: Loadable<readonly T[]>;
  loadingText: string;
  failureText: string;
  onRetry(): unknown;
  /** The EmptyState shown, in a card, when there is nothing yet. */
  empty: ReactNode;
  /** The list's accessible name, where the page gives it one. */
  label?: string;
  /** One `<li>` row for an item. */
  renderRow(item: T): ReactNode;
}) {
  return (
    <LoadableView
      value={value}
      loadingText={loadingText}
      failureText={failureText}
      onRetry={onRetry}
      warnWhenListStale
    >
      {(list) =>
        list.length === 0 ? (
          <div className="card">{empty}</div>
        ) : (
          <ul className="settings-list" aria-label={label}>
            {list.map((item) => (
              <Fragment key={item.id}>{renderRow(item)}</Fragment>
            ))}
          </ul>
        )
      }
    </LoadableView>
  );
}
