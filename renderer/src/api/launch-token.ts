/**
 * The web-mode launch token (docs/contract.md §11). The printed URL brings it as `?token=`; the page keeps it in
 * session storage (readable by this origin and tab only, and it survives a reload), takes it out of
 * the address bar and history at once, and hands it to the WebSocket. Never a cookie: browsers send
 * cookies for 127.0.0.1 to every port, so any other local server would receive it.
 */
const storageKey = "hermes.launchToken";

export interface LaunchTokenPlace {
  location: Pick<Location, "href">;
  history: Pick<History, "replaceState" | "state">;
  sessionStorage: Pick<Storage, "getItem" | "setItem">;
}

/**
 * Runs the token's bookkeeping (out of the address bar, into session storage): at once by default.
 * Both wait on the browser process (a tab's first touch of its session storage: tens of ms on a
 * busy machine; a history entry rewrite: a few), so the page passes a scheduler that runs them once
 * it has painted and is idle, or as the page goes away, whichever comes first.
 */
export type StorageWriteScheduler = (write: () => void) => void;

/** A scheduler that writes once `settled` settles, or as the page goes away (a reload) if sooner. */
export function writeAfter(
  settled: Promise<unknown>,
  page: Pick<EventTarget, "addEventListener" | "removeEventListener">,
): StorageWriteScheduler {
  return (write) => {
    let done = false;
    const once = () => {
      if (done) return;
      done = true;
      page.removeEventListener("pagehide", once);
      write();
    };
    page.addEventListener("pagehide", once);
    void settled.then(once);
  };
}

/** The token from the address bar (then removed from it) or from an earlier load of this tab. */
export function takeLaunchToken(
  place: LaunchTokenPlace,
  scheduleWrite: StorageWriteScheduler = (write) => write(),
): string | null {
  const url = new URL(place.location.href);
  const fromUrl = url.searchParams.get("token");
  if (fromUrl !== null) {
    url.searchParams.delete("token");
    scheduleWrite(() => {
      // The fragment as it is now: the app may have moved on (route-sync.ts) since the page loaded.
      const { hash } = new URL(place.location.href);
      place.history.replaceState(place.history.state, "", url.pathname + url.search + hash);
      try {
        place.sessionStorage.setItem(storageKey, fromUrl);
      } catch {
        // Storage can be off (private modes); the token then lasts as long as this page.
      }
    });
    return fromUrl;
  }
  try {
    return place.sessionStorage.getItem(storageKey);
  } catch {
    return null;
  }
}
