/**
 * Keeps a scrolling transcript at its latest output: it follows the content while the view is at
 * the bottom, stops when the person scrolls up (then `atBottom` is false and the UI offers "Jump to
 * latest"), and `jumpToLatest` brings the end back into view and follows again.
 */
import { useCallback, useEffect, useRef, useState } from "react";

/** Within this distance of the end the view counts as "at the bottom". */
const stickThresholdPx = 48;

export interface FollowOutput {
  /** Callback refs: the scrolling element and the element whose size grows with the content. */
  scrollerRef(element: HTMLElement | null): void;
  contentRef(element: HTMLElement | null): void;
  onScroll(): void;
  atBottom: boolean;
  jumpToLatest(options?: { smooth?: boolean }): void;
  /** Stops following (e.g. the view was moved to a search hit). */
  release(): void;
}

export function useFollowOutput(): FollowOutput {
  const [scroller, setScroller] = useState<HTMLElement | null>(null);
  const [content, setContent] = useState<HTMLElement | null>(null);
  const following = useRef(true);
  // Scroll events our own scrolling causes must not be read as the person scrolling away.
  const programmatic = useRef(false);
  const [atBottom, setAtBottom] = useState(true);

  const toEnd = useCallback(
    (smooth = false) => {
      if (!scroller) return;
      programmatic.current = true;
      scroller.scrollTo({ top: scroller.scrollHeight, behavior: smooth ? "smooth" : "instant" });
      if (!smooth) programmatic.current = false;
    },
    [scroller],
  );

  // Follow the growing content: streamed text changes the height without a scroll event.
  useEffect(() => {
    if (!scroller || !content) return;
    const follow = () => {
      if (following.current) toEnd();
    };
    follow();
    const observer = new ResizeObserver(follow);
    observer.observe(content);
    observer.observe(scroller);
    return () => observer.disconnect();
  }, [scroller, content, toEnd]);

  const onScroll = useCallback(() => {
    if (!scroller) return;
    const distance = scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight;
    const bottom = distance < stickThresholdPx;
    if (bottom) programmatic.current = false;
    if (!programmatic.current) following.current = bottom;
    setAtBottom(bottom || programmatic.current);
  }, [scroller]);

  const jumpToLatest = useCallback(
    (options: { smooth?: boolean } = {}) => {
      following.current = true;
      setAtBottom(true);
      toEnd(options.smooth ?? false);
    },
    [toEnd],
  );

  const release = useCallback(() => {
    following.current = false;
  }, []);

  return { scrollerRef: setScroller, contentRef: setContent, onScroll, atBottom, jumpToLatest, release };
}
