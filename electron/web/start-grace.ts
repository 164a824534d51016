/**
 * When web mode's host starts if no connection asked for it first: `graceMs` after launch when no
 * page loads, or once a loading page has asked for no file for `quietMs` — its first load is in,
 * and while the browser runs that code (the socket opens after its first paint) the host starts
 * beside it instead of after it. Starting in the middle of the burst of files would hold them up.
 */
export interface StartGrace {
  /** A file of the page was just served: the page is loading, so start once it goes quiet. */
  postpone(): void;
  /** The host started for another reason (a connection): nothing left to wait for. */
  cancel(): void;
}

export interface GraceTimes {
  /** How long the host waits for a page at all. */
  graceMs: number;
  /** How long a loading page asks for no file before the host starts. */
  quietMs: number;
}

export function startGrace(start: () => void, { graceMs, quietMs }: GraceTimes): StartGrace {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const arm = (ms: number) => {
    timer = setTimeout(() => {
      timer = null;
      start();
    }, ms);
    // The wait alone never keeps the process alive.
    (timer as { unref?: () => void }).unref?.();
  };
  arm(graceMs);
  return {
    postpone() {
      if (timer === null) return;
      clearTimeout(timer);
      arm(quietMs);
    },
    cancel() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
