/**
 * Keeps a scrolling transcript at its latest output: it follows the content while the view is at
 * the bottom, stops when the person scrolls up (then `atBottom` is false and the UI offers "Jump to
 * latest"), and `jumpToLatest` brings the end back into view and follows again.
 */
import { useCallback, useEffect, useRef, useState } from "react";

/** The OS asks for reduced motion: no smooth scrolling. */
const prefersReducedMotion = (): boolean => matchMedia("(prefers-reduced-motion: reduce)").matches;

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
  const [scroller, setScrollerState] = useState<HTMLElement | null>(null);
  // The callbacks below read the element through a ref, so they stay the same function for the
  // component's life and effects that depend on them run only for their own reasons.
  const scrollerNow = useRef<HTMLElement | null>(null);
  const setScroller = useCallback((element: HTMLElement | null) => {
    scrollerNow.current = element;
    setScrollerState(element);
  }, []);
  const [content, setContent] = useState<HTMLElement | null>(null);
  const following = useRef(true);
  // Scroll events our own scrolling causes must not be read as the person scrolling away.
  const programmatic = useRef(false);
  const [atBottom, setAtBottom] = useState(true);

  // Where our own last scroll left the view: a view found higher up than that (and away from the
  // end) was moved by the person, whether or not its scroll event has been handled yet.
  const lastSetTop = useRef<number | null>(null);

  const toEnd = useCallback((smooth = false) => {
    const element = scrollerNow.current;
    if (!element) return;
    programmatic.current = true;
    // Where the view will be, read before scrolling: reading it after would make the browser lay
    // the page out again there and then, inside the frame's task.
    const end = Math.max(0, element.scrollHeight - element.clientHeight);
    element.scrollTo({ top: end, behavior: smooth ? "smooth" : "instant" });
    lastSetTop.current = smooth ? null : end;
    if (!smooth) programmatic.current = false;
  }, []);

  const movedAwayByPerson = (element: HTMLElement): boolean => {
    const distance = element.scrollHeight - element.scrollTop - element.clientHeight;
    return (
      lastSetTop.current !== null &&
      element.scrollTop < lastSetTop.current - 2 &&
      distance >= stickThresholdPx
    );
  };

  // Follow the growing content: streamed text changes the height without a scroll event.
  useEffect(() => {
    if (!scroller || !content) return;
    const follow = () => {
      if (!following.current) return;
      if (movedAwayByPerson(scroller)) {
        following.current = false;
        setAtBottom(false);
        return;
      }
      toEnd();
    };
    // No first call here: the observer reports each element once as it starts observing, after
    // the frame's layout; reading the view's size now would lay the page out inside the commit.
    const observer = new ResizeObserver(follow);
    observer.observe(content);
    observer.observe(scroller);
    return () => observer.disconnect();
  }, [scroller, content, toEnd]);

  const onScroll = useCallback(() => {
    const element = scrollerNow.current;
    if (!element) return;
    const distance = element.scrollHeight - element.scrollTop - element.clientHeight;
    const bottom = distance < stickThresholdPx;
    if (bottom) programmatic.current = false;
    // Text that arrived after our own scroll (and before this event) leaves the view short of the
    // end with nobody scrolling: only a view higher than where we left it was moved by the person.
    const grewUnderUs =
      following.current && lastSetTop.current !== null && element.scrollTop >= lastSetTop.current - 2;
    if (!programmatic.current && !grewUnderUs) following.current = bottom;
    if (bottom) lastSetTop.current = element.scrollTop;
    setAtBottom(bottom || programmatic.current || grewUnderUs);
  }, []);

  // A jump asked for while a new message or turn is committed waits for the next frame: reading
  // where the end is lays the page out there and then, in the commit's task (a first message's
  // commit and its layout were one ~10 ms task); in the frame, layout is due anyway.
  const pendingJump = useRef<number | null>(null);
  useEffect(
    () => () => {
      if (pendingJump.current !== null) cancelAnimationFrame(pendingJump.current);
    },
    [],
  );
  const jumpToLatest = useCallback(
    (options: { smooth?: boolean } = {}) => {
      following.current = true;
      setAtBottom(true);
      if (options.smooth && !prefersReducedMotion()) {
        toEnd(true);
        return;
      }
      pendingJump.current ??= requestAnimationFrame(() => {
        pendingJump.current = null;
        if (following.current) toEnd();
      });
    },
    [toEnd],
  );

  const release = useCallback(() => {
    following.current = false;
  }, []);

  return { scrollerRef: setScroller, contentRef: setContent, onScroll, atBottom, jumpToLatest, release };
}
