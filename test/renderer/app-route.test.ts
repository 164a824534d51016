/**
 * The app's route in the address's fragment (renderer/src/stores/app-route.ts, route-sync.ts):
 * written as the person moves between the chat, Settings and a plugin page, read back at start,
 * and anything that names no route opens the chat.
 */
import { describe, expect, it, vi } from "vitest";
import { parseRouteFragment, routeFragment, type AppRoute } from "../../renderer/src/stores/app-route";
import { createAppStores } from "../../renderer/src/stores/app-stores";
import { lastChatIn } from "../../renderer/src/stores/chat/last-chat";
import { followAppRoute, type RoutePlace } from "../../renderer/src/stores/route-sync";
import { chatHandlers, session } from "./chat-fixtures";
import { fakeClient } from "./fake-client";

const routes: Array<[string, AppRoute]> = [
  ["#/chat", { screen: { name: "chat" }, sessionId: null }],
  ["#/chat/s-1", { screen: { name: "chat" }, sessionId: "s-1" }],
  ["#/settings/plugins", { screen: { name: "settings", section: "plugins" }, sessionId: null }],
  ["#/settings/mcp", { screen: { name: "settings", section: "mcp" }, sessionId: null }],
  [
    "#/plugin/chart-writer/charts%2Fall",
    { screen: { name: "plugin-page", pluginId: "chart-writer", pageId: "charts/all" }, sessionId: null },
  ],
];

describe("the route in the fragment", () => {
  it.each(routes)("%s reads back as written", (fragment, route) => {
    expect(routeFragment(route)).toBe(fragment);
    expect(parseRouteFragment(fragment)).toEqual(route);
  });

  it.each([
    "",
    "#",
    "#/",
    "#chat",
    "#/chat/a/b",
    "#/settings",
    "#/settings/secrets",
    "#/settings/plugins/extra",
    "#/plugin/only-one",
    "#/plugin//page",
    "#/plugin/%E0%A4%A/page",
    "#/chat/%ZZ",
    "#/elsewhere",
  ])("%j names no route", (fragment) => {
    expect(parseRouteFragment(fragment)).toBeNull();
  });
});

/** A `window` stand-in: the fragment, and every replace the app made. */
function place(hash: string): RoutePlace & { replaced: string[] } {
  const replaced: string[] = [];
  const location = {
    hash,
    replace(url: string) {
      replaced.push(url);
      location.hash = url;
    },
  };
  return { location, replaced };
}

function memory() {
  const storage = new Map<string, string>();
  return lastChatIn({
    getItem: (k) => storage.get(k) ?? null,
    setItem: (k, v) => void storage.set(k, v),
    removeItem: (k) => void storage.delete(k),
  });
}

const list = [session("s2", "Trip to Lisbon", 20), session("s1", "Tax questions", 10)];
const storesWith = (lastChat: ReturnType<typeof memory>) =>
  createAppStores(fakeClient(chatHandlers({ "session.list": () => ({ sessions: list }) })), {
    chat: { lastChat },
  });

describe("following the route", () => {
  it("keeps the fragment current as the person moves, without a write per unchanged state", async () => {
    const lastChat = memory();
    const stores = storesWith(lastChat);
    const window = place("");
    followAppRoute(window, { navigation: stores.navigation, sessions: stores.chat.sessions }, lastChat);
    expect(window.location.hash).toBe("#/chat");
    await stores.chat.sessions.getState().load();
    stores.chat.sessions.getState().select("s1");
    expect(window.location.hash).toBe("#/chat/s1");
    stores.navigation.getState().goToSettings("appearance");
    expect(window.location.hash).toBe("#/settings/appearance");
    stores.navigation.getState().goToPluginPage("chart-writer", "charts");
    expect(window.location.hash).toBe("#/plugin/chart-writer/charts");
    stores.navigation.getState().setChatModelPickerOpen(true);
    stores.navigation.getState().goToChat();
    expect(window.replaced).toEqual([
      "#/chat",
      "#/chat/s1",
      "#/settings/appearance",
      "#/plugin/chart-writer/charts",
      "#/chat/s1",
    ]);
  });

  it("opens the chat, the Settings page or the plugin page the fragment names", async () => {
    // The route seeds the remembered chat, which the first list reopens.
    const seeded = memory();
    const withChat = storesWith(seeded);
    followAppRoute(
      place("#/chat/s1"),
      { navigation: withChat.navigation, sessions: withChat.chat.sessions },
      seeded,
    );
    await withChat.chat.sessions.getState().load();
    expect(withChat.chat.sessions.getState().selectedId).toBe("s1");

    // A Settings page opens at once; the list is loaded for it, so the last chat is open behind it.
    const remembered = memory();
    remembered.write("s1");
    const settings = storesWith(remembered);
    const onSettings = place("#/settings/mcp");
    followAppRoute(
      onSettings,
      { navigation: settings.navigation, sessions: settings.chat.sessions },
      remembered,
    );
    expect(settings.navigation.getState().screen).toEqual({ name: "settings", section: "mcp" });
    await vi.waitFor(() => expect(settings.chat.sessions.getState().selectedId).toBe("s1"));
    settings.navigation.getState().goToSettings("models");
    expect(onSettings.replaced).toEqual(["#/settings/models"]);

    // A plugin page waits for the chat list (it shows with the open chat).
    const lastChat = memory();
    lastChat.write("s2");
    const page = storesWith(lastChat);
    const window = place("#/plugin/chart-writer/charts");
    followAppRoute(window, { navigation: page.navigation, sessions: page.chat.sessions }, lastChat);
    expect(page.navigation.getState().screen).toEqual({ name: "chat" });
    expect(window.replaced).toEqual([]); // the route is kept until the page is open
    await page.chat.sessions.getState().load();
    expect(page.navigation.getState().screen).toEqual({
      name: "plugin-page",
      pluginId: "chart-writer",
      pageId: "charts",
    });
    expect(page.chat.sessions.getState().selectedId).toBe("s2");
    expect(window.location.hash).toBe("#/plugin/chart-writer/charts");
  });

  it("a fragment that names no route opens the chat, and is replaced by the chat's route", async () => {
    const stores = storesWith(memory());
    const window = place("#/settings/secrets");
    followAppRoute(window, { navigation: stores.navigation, sessions: stores.chat.sessions });
    await stores.chat.sessions.getState().load();
    expect(stores.navigation.getState().screen).toEqual({ name: "chat" });
    expect(window.location.hash).toBe("#/chat");
  });
});
