/**
 * Opens the app at the route in the address's fragment (app-route.ts) and keeps the fragment
 * current as the person moves between the chat, Settings and plugin pages.
 */
import type { StoreApi } from "zustand/vanilla";
import { parseRouteFragment, routeFragment } from "./app-route.js";
import type { LastChatMemory } from "./chat/last-chat.js";
import type { NavigationState } from "./navigation-store.js";
import type { SessionsState } from "./chat/session-list-store.js";

export interface RoutePlace {
  readonly location: { readonly hash: string; replace(url: string): void };
}

export interface RoutedStores {
  navigation: StoreApi<NavigationState>;
  sessions: StoreApi<SessionsState>;
}

/**
 * Call before the chat list first loads: a route's chat becomes the one the list reopens. A plugin
 * page opens once the list is there (the page needs the open chat; earlier it would start a new
 * one), which the chat screen loads meanwhile. Until then the fragment is left as it is (so a
 * close before it does not lose the route); returns the function that stops following.
 */
export function followAppRoute(
  place: RoutePlace,
  stores: RoutedStores,
  lastChat?: LastChatMemory,
): () => void {
  const route = parseRouteFragment(place.location.hash);
  const { navigation, sessions } = stores;
  if (route?.sessionId) lastChat?.write(route.sessionId);
  if (route?.screen.name === "settings") {
    navigation.getState().goToSettings(route.screen.section);
    // The chat screen loads the list (which reopens the last chat); a Settings page does not, and
    // without it a plugin page opened from there would start a new chat.
    void sessions.getState().load();
  }
  let pendingPage = route?.screen.name === "plugin-page" ? route.screen : null;
  // A chat or a plugin page waits for the list; a Settings page need not.
  let restored = !pendingPage && !route?.sessionId;

  const update = () => {
    if (!restored) {
      if (sessions.getState().sessions.kind === "loading") return;
      restored = true;
      // Unless the person went somewhere else meanwhile.
      if (pendingPage && navigation.getState().screen.name === "chat") {
        navigation.getState().goToPluginPage(pendingPage.pluginId, pendingPage.pageId);
      }
      pendingPage = null;
    }
    const fragment = routeFragment({
      screen: navigation.getState().screen,
      sessionId: sessions.getState().selectedId,
    });
    if (place.location.hash !== fragment) place.location.replace(fragment);
  };
  const stopNavigation = navigation.subscribe(update);
  const stopSessions = sessions.subscribe(update);
  update();
  return () => {
    stopNavigation();
    stopSessions();
  };
}
