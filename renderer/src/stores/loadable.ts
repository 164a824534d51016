/** Data a screen waits for: exactly one of loading, ready (maybe with a failed refresh), or failed. */
export type Loadable<T> =
  | { kind: "loading" }
  | { kind: "ready"; data: T; refreshError: string | null }
  | { kind: "failed"; message: string };

export const loading = <T>(): Loadable<T> => ({ kind: "loading" });
export const ready = <T>(data: T): Loadable<T> => ({ kind: "ready", data, refreshError: null });

/**
 * A refresh that fails keeps what the screen already shows (with a note) instead of blanking it.
 */
export const failedRefresh = <T>(previous: Loadable<T>, message: string): Loadable<T> =>
  previous.kind === "ready" ? { ...previous, refreshError: message } : { kind: "failed", message };

export const dataOf = <T>(value: Loadable<T>): T | undefined =>
  value.kind === "ready" ? value.data : undefined;

/**
 * Hands out tickets so only the latest of overlapping loads lands (events can trigger several
 * refreshes in a row; an older, slower answer must not overwrite a newer one).
 */
export function latestOnly(): () => () => boolean {
  let current = 0;
  return () => {
    const ticket = ++current;
    return () => ticket === current;
  };
}
