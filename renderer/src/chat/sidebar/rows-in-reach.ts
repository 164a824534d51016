/**
 * How many rows of a long list to render: the first screenful and a margin at start, more as the
 * person scrolls or tabs towards the end — so a window opening on a thousand chats renders tens of
 * rows, not a thousand. Rows once rendered stay (the list only grows), so focus, find-in-page and
 * what a screen reader has read keep their place; `mustShow` rows (the open chat) are always in.
 */
import { useCallback, useEffect, useState, type FocusEvent } from "react";

/** Rows rendered at first: a tall window shows ~30 chats. */
export const FIRST_ROWS = 60;
/** Rows added each time the end comes within reach. */
export const MORE_ROWS = 100;
/** Focus within this many rows of the last rendered one renders more, so Tab never runs out. */
const FOCUS_MARGIN = 10;

export interface RowsInReach {
  /** How many rows to render. */
  count: number;
  /** The ref of the element after the last row: its coming within a screen of view renders more. */
  markEnd(element: HTMLDivElement | null): void;
  /** For the list's `onFocus`: focus near the last rendered row renders more. */
  onFocus(event: FocusEvent<HTMLElement>): void;
}

export function useRowsInReach(total: number, mustShow: number): RowsInReach {
  const [shown, setShown] = useState(FIRST_ROWS);
  // Without IntersectionObserver (no layout to watch), every row renders.
  const [watchable] = useState(() => typeof IntersectionObserver === "function");
  const count = watchable ? Math.min(total, Math.max(shown, mustShow + 1 + FOCUS_MARGIN)) : total;
  const [end, markEnd] = useState<HTMLDivElement | null>(null);
  const more = useCallback(() => setShown((n) => Math.max(n, count) + MORE_ROWS), [count]);
  useEffect(() => {
    if (!watchable || !end || count >= total) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && more(), {
      root: end.parentElement,
      rootMargin: "100% 0px",
    });
    observer.observe(end);
    return () => observer.disconnect();
  }, [watchable, end, count, total, more]);
  const onFocus = useCallback(
    (event: FocusEvent<HTMLElement>) => {
      const row = (event.target as Element).closest("li");
      const list = row?.parentElement;
      if (!row || !list || count >= total) return;
      if (Array.prototype.indexOf.call(list.children, row) >= count - FOCUS_MARGIN) more();
    },
    [count, total, more],
  );
  return { count, markEnd, onFocus };
}
