/**
 * When the window's first screen is on show with its data: the providers answered and, when there
 * are any, the chat screen's code is in and the list of chats loaded (else the welcome shows) —
 * and a frame with it has been painted. Work that only later screens need waits for this.
 */
import type { StoreApi } from "zustand/vanilla";
import { preloadChatScreen } from "../chat/chat-view.js";
import type { AppStores } from "../stores/app-stores.js";

/** Settles once `store`'s state satisfies `done` (at once when it already does). */
const until = <T>(store: StoreApi<T>, done: (state: T) => boolean): Promise<void> =>
  new Promise((resolve) => {
    if (done(store.getState())) return resolve();
    const stop = store.subscribe((state) => {
      if (!done(state)) return;
      stop();
      resolve();
    });
  });

/** Settles after the next frame is painted (the task after its animation frame). */
const afterNextPaint = (): Promise<void> =>
  new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

async function firstScreenData(stores: AppStores): Promise<void> {
  await until(stores.providers, (s) => s.providers.kind !== "loading");
  const providers = stores.providers.getState().providers;
  if (providers.kind !== "ready" || providers.data.length === 0) return; // the welcome or an alert
  await Promise.all([
    preloadChatScreen().catch(() => undefined),
    until(stores.chat.sessions, (s) => s.sessions.kind !== "loading"),
  ]);
}

/** Settles when the first screen has been painted with its data, or after `timeoutMs` at most. */
export function firstScreenShown(stores: AppStores, timeoutMs: number): Promise<void> {
  const shown = firstScreenData(stores).then(afterNextPaint);
  const late = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs));
  return Promise.race([shown, late]);
}
