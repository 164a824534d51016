// @vitest-environment happy-dom
/**
 * The sidebar as a person meets it: Settings' sections stay together right under Settings, plugin
 * pages in a group of their own after them, and the collapsed rail keeps New chat.
 */
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { PluginView } from "../../electron/host/rpc/methods/plugins";
import { chatHandlers, message, session } from "./chat-fixtures";
import { fakeClient } from "./fake-client";
import { renderApp } from "./render-app";

afterEach(cleanup);

const charts: PluginView = {
  id: "chart-writer",
  name: "Chart writer",
  version: "1.0.0",
  description: "Charts.",
  enabled: true,
  status: "loaded",
  capabilities: [],
  pendingCapabilities: [],
  pages: [{ id: "charts", title: "Charts", url: "/plugin-pages/chart-writer/charts" }],
  source: "bundled",
  warnings: [],
};

const client = () =>
  fakeClient(
    chatHandlers({
      "plugins.list": () => ({ plugins: [charts] }),
      "plugins.commands": () => ({ commands: [] }),
      "session.list": () => ({ sessions: [session("s1", "Greetings", 5)] }),
      "session.messages": () => ({
        messages: [message({ id: "u1", role: "user", seq: 0, content: "Hi", turnId: "t1" })],
      }),
    }),
  );

describe("sidebar", () => {
  it("keeps Settings' sections together under Settings, and plugin pages in their own group after them", async () => {
    renderApp(client());
    const main = screen.getByRole("navigation", { name: "Main" });
    fireEvent.click(within(main).getByRole("button", { name: "Settings" }));
    const settings = await screen.findByRole("navigation", { name: "Settings" });
    const pages = await screen.findByRole("navigation", { name: "Plugin pages" });
    expect(main.nextElementSibling).toBe(settings);
    expect(settings.compareDocumentPosition(pages) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(pages).getByRole("group", { name: "Chart writer" })).toBeTruthy();
    expect(within(settings).queryByRole("button", { name: "Charts" })).toBeNull();
  });

  it("the collapsed rail has New chat, which opens a new chat from any screen", async () => {
    const { stores } = renderApp(client());
    await screen.findByRole("navigation", { name: "Chats" });
    act(() => stores.chat.sessions.getState().select("s1"));
    await waitFor(() => expect(stores.chat.transcript.getState().sessionId).toBe("s1"));
    fireEvent.click(screen.getByRole("button", { name: "Collapse sidebar" }));
    fireEvent.click(
      within(screen.getByRole("navigation", { name: "Main" })).getByRole("button", { name: "Settings" }),
    );
    fireEvent.click(screen.getByRole("button", { name: "New chat" }));
    expect(stores.navigation.getState().screen.name).toBe("chat");
    await waitFor(() => expect(stores.chat.transcript.getState().sessionId).toBeNull());
  });
});
