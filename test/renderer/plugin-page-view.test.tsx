// @vitest-environment happy-dom
/**
 * A plugin page's frame (docs/contract.md §8): the app mints the frame's own page token for the plugin and
 * the open chat (`plugins.pageSession`), puts it in the frame's source (never the app's token),
 * revokes it when the frame goes away (`plugins.pageSessionEnd`), and says in plain words when no
 * token could be had.
 */
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { PluginView } from "../../electron/host/rpc/methods/plugins";
import { HermesRpcError } from "../../renderer/src/api/rpc-error";
import { PluginPageView } from "../../renderer/src/plugins/plugin-page-view";
import { createAppStores } from "../../renderer/src/stores/app-stores";
import { StoresProvider } from "../../renderer/src/stores/stores-context";
import { fakeClient, type Handlers } from "./fake-client";

afterEach(cleanup);

const charts: PluginView = {
  id: "charts",
  name: "charts",
  version: "1.0.0",
  description: "",
  enabled: true,
  status: "loaded",
  capabilities: [],
  pendingCapabilities: [],
  pages: [{ id: "main", title: "Charts", url: "hermes-plugin://charts/page/index.html" }],
  source: "user",
  warnings: [],
};
const TOKEN = "p".repeat(43);

async function show(overrides: Handlers = {}) {
  const client = fakeClient({
    "host.info": () => ({ version: "1", mode: "web", home: "/h", notices: [] }),
    "plugins.list": () => ({ plugins: [charts] }),
    "plugins.pageSession": () => ({ token: TOKEN, expiresAt: 0 }),
    "plugins.pageSessionEnd": () => ({ ended: true }),
    ...overrides,
  });
  const stores = createAppStores(client);
  await stores.host.getState().load();
  await stores.plugins.getState().load();
  stores.chat.sessions.getState().select("s-1");
  const view = render(
    <StoresProvider stores={stores}>
      <PluginPageView pluginId="charts" pageId="main" />
    </StoresProvider>,
  );
  return { client, view };
}

describe("PluginPageView", () => {
  it("frames the page with its own page token for the open chat, and revokes it when it goes", async () => {
    const { client, view } = await show();
    const frame = await waitFor(() => screen.getByTitle<HTMLIFrameElement>("charts: Charts"));
    expect(client.callsOf("plugins.pageSession")).toEqual([{ id: "charts", sessionId: "s-1" }]);
    const src = new URL(frame.getAttribute("src")!, "http://127.0.0.1:1");
    expect(src.pathname).toBe("/plugin-pages/charts/page/index.html");
    expect(src.searchParams.get("hermesToken")).toBe(TOKEN);
    expect(src.searchParams.get("hermesSession")).toBe("s-1");
    expect(frame.getAttribute("sandbox")).toBe("allow-scripts");
    expect(client.callsOf("plugins.pageSessionEnd")).toEqual([]);
    act(() => view.unmount());
    expect(client.callsOf("plugins.pageSessionEnd")).toEqual([{ token: TOKEN }]);
  });

  it("says why when the page can't get its token", async () => {
    await show({
      "plugins.pageSession": () => {
        throw new HermesRpcError("plugin_not_found", 'No enabled plugin "charts" has pages.');
      },
    });
    expect(await screen.findByText("The page could not open")).toBeTruthy();
    expect(screen.getByText('No enabled plugin "charts" has pages.')).toBeTruthy();
    expect(screen.queryByTitle("charts: Charts")).toBeNull();
  });
});
