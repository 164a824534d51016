/**
 * When web mode's host starts if no page asks for it: `graceMs` after launch, or after the last
 * file of the page was served, whichever is later. A page that is loading connects (and so starts
 * the host) once it has painted; starting the host's heavy work in the middle of that load would
 * only slow the first paint down.
 */
export interface StartGrace {
  /** A file of the page was just served: the page is loading, so the wait starts over. */
  postpone(): void;
  /** The host started for another reason (a connection): nothing left to wait for. */
  cancel(): void;
}

export function startGrace(start: () => void, graceMs: number): StartGrace {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const arm = () => {
    timer = setTimeout(() => {
      timer = null;
      start();
    }, graceMs);
    // The wait alone never keeps the process alive.
    (timer as { unref?: () => void }).unref?.();
  };
  arm();
  return {
    postpone() {
      if (timer === null) return;
      clearTimeout(timer);
      arm();
    },
    cancel() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
