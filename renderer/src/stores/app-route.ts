/**
 * The app's place as the address's fragment: `#/chat` or `#/chat/<sessionId>`,
 * `#/settings/<section>`, `#/plugin/<pluginId>/<pageId>`. The renderer keeps it current (with
 * `location.replace`, so no history piles up), which the desktop shell records as the window's
 * last route (electron/window-state.ts) and a browser keeps across a reload; at start the app
 * opens there again. Anything else in the fragment is no route and opens the chat.
 */
import { SETTINGS_SECTIONS, type Screen, type SettingsSection } from "./navigation-store.js";

export interface AppRoute {
  screen: Screen;
  /** The chat open on the chat screen, when one is. */
  sessionId: string | null;
}

const part = (value: string) => encodeURIComponent(value);

export function routeFragment(route: AppRoute): string {
  const { screen } = route;
  switch (screen.name) {
    case "chat":
      return route.sessionId ? `#/chat/${part(route.sessionId)}` : "#/chat";
    case "settings":
      return `#/settings/${screen.section}`;
    case "plugin-page":
      return `#/plugin/${part(screen.pluginId)}/${part(screen.pageId)}`;
  }
}

const decode = (value: string | undefined): string | null => {
  if (!value) return null;
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
};

const isSection = (value: string | undefined): value is SettingsSection =>
  (SETTINGS_SECTIONS as readonly string[]).includes(value ?? "");

/** The route in a fragment (`location.hash`), or null when it names none. */
export function parseRouteFragment(hash: string): AppRoute | null {
  const parts = hash.replace(/^#/, "").split("/");
  if (parts[0] !== "") return null;
  const [, kind, first, second, ...rest] = parts;
  if (rest.length > 0) return null;
  if (kind === "chat" && second === undefined) {
    if (first === undefined) return { screen: { name: "chat" }, sessionId: null };
    const sessionId = decode(first);
    return sessionId ? { screen: { name: "chat" }, sessionId } : null;
  }
  if (kind === "settings" && second === undefined && isSection(first)) {
    return { screen: { name: "settings", section: first }, sessionId: null };
  }
  if (kind === "plugin") {
    const pluginId = decode(first);
    const pageId = decode(second);
    if (pluginId && pageId) return { screen: { name: "plugin-page", pluginId, pageId }, sessionId: null };
  }
  return null;
}
