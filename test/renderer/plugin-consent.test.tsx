// @vitest-environment happy-dom
/**
 * The consent screen (docs/contract.md §7.2) on the whole app: shown at once on `plugin.consent_required`
 * and for enabled plugins still pending, with the exact §7.1 text; Decline has the focus, Escape
 * and closing decline; Grant grants what is pending. Revoke in Settings → Plugins. The
 * next-prompt chip fills the message box.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { CAPABILITY_IDS, CAPABILITY_TEXT } from "../../electron/host/plugins/capabilities/capabilities";
import type { PluginView } from "../../electron/host/rpc/methods/plugins";
import { NextPromptChip } from "../../renderer/src/chat/cards/next-prompt-chip";
import { PluginsPage } from "../../renderer/src/settings/plugins/plugins-page";
import { connectStoresToHost, createAppStores } from "../../renderer/src/stores/app-stores";
import { StoresProvider } from "../../renderer/src/stores/stores-context";
import { fakeClient, settingsWith, type Handlers } from "./fake-client";
import { renderApp } from "./render-app";

afterEach(cleanup);

const SQ_TEXT =
  "Ask your agent a short question after each turn. It sees the whole session, including memory, and spends your main model's tokens.";

const nextPrompt = (over: Partial<PluginView> = {}): PluginView => ({
  id: "next-prompt",
  name: "next-prompt",
  version: "1.0.0",
  description: "Suggests your next message.",
  enabled: true,
  status: "loaded",
  capabilities: [{ id: "llm.side_question", granted: false }],
  pendingCapabilities: ["llm.side_question"],
  pages: [],
  source: "bundled",
  warnings: [],
  ...over,
});

function handlers(list: () => PluginView[], overrides: Handlers = {}): Handlers {
  return {
    "host.info": () => ({ version: "1.2.3", mode: "web", home: "/tmp/h", notices: [] }),
    "settings.get": () => settingsWith(),
    "providers.list": () => ({ providers: [] }),
    "plugins.list": () => ({ plugins: list() }),
    "plugins.commands": () => ({ commands: [] }),
    "plugins.consent": ({ grant }) => ({
      plugin: nextPrompt({
        capabilities: [{ id: "llm.side_question", granted: grant.length > 0 }],
        pendingCapabilities: [],
      }),
    }),
    ...overrides,
  };
}

const dialog = () => screen.findByRole("dialog", { name: "Plugin consent" });

describe("the consent screen", () => {
  it("shows at once on plugin.consent_required: name, version, the exact text, the trust note", async () => {
    let listed: PluginView[] = [];
    const client = fakeClient(handlers(() => listed));
    renderApp(client);
    await waitFor(() => expect(client.callsOf("plugins.list")).toHaveLength(1));
    expect(screen.queryByRole("dialog", { name: "Plugin consent" })).toBeNull();
    listed = [nextPrompt()];
    act(() =>
      client.emit({
        type: "plugin.consent_required",
        session_id: null,
        payload: { id: "next-prompt", pendingCapabilities: ["llm.side_question"] },
      }),
    );
    const screenEl = await dialog();
    expect(screenEl.textContent).toContain("next-prompt");
    expect(screenEl.textContent).toContain("v1.0.0");
    expect(within(screenEl).getAllByRole("listitem")).toHaveLength(1);
    expect(screenEl.querySelector('[data-capability="llm.side_question"]')?.textContent).toContain(SQ_TEXT);
    expect(screenEl.textContent).toContain("Granting trusts the plugin's author");
    expect(within(screenEl).getByTestId("consent-decline-note").textContent).toBe(
      "Decline keeps next-prompt on without this capability: the rest of it works as before, and you can grant it later in Settings → Plugins.",
    );
    await waitFor(() =>
      expect(document.activeElement).toBe(within(screenEl).getByRole("button", { name: "Decline" })),
    );
  });

  it("shows the host's own words for every capability (one home for the consent text)", async () => {
    const all = nextPrompt({
      capabilities: CAPABILITY_IDS.map((id) => ({ id, granted: false })),
      pendingCapabilities: [...CAPABILITY_IDS],
    });
    renderApp(fakeClient(handlers(() => [all])));
    const screenEl = await dialog();
    for (const id of CAPABILITY_IDS) {
      expect(screenEl.querySelector(`[data-capability="${id}"]`)?.textContent).toContain(CAPABILITY_TEXT[id]);
    }
  });

  it("asks at start for an enabled plugin still pending; Escape declines with an empty grant", async () => {
    const client = fakeClient(handlers(() => [nextPrompt()]));
    renderApp(client);
    await dialog();
    fireEvent.keyDown(document.activeElement ?? document.body, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Plugin consent" })).toBeNull());
    expect(client.callsOf("plugins.consent")).toEqual([{ id: "next-prompt", grant: [] }]);
  });

  it("Grant grants every pending capability; Decline sends []", async () => {
    const client = fakeClient(handlers(() => [nextPrompt()]));
    const { stores } = renderApp(client);
    fireEvent.click(within(await dialog()).getByRole("button", { name: "Grant" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Plugin consent" })).toBeNull());
    expect(client.callsOf("plugins.consent")).toEqual([{ id: "next-prompt", grant: ["llm.side_question"] }]);
    act(() =>
      stores.plugins
        .getState()
        .requestConsent({ id: "next-prompt", pendingCapabilities: ["llm.side_question"] }),
    );
    fireEvent.click(within(await dialog()).getByRole("button", { name: "Decline" }));
    await waitFor(() => expect(client.callsOf("plugins.consent")).toHaveLength(2));
    expect(client.callsOf("plugins.consent")[1]).toEqual({ id: "next-prompt", grant: [] });
  });

  it("says so when the answer could not be saved, and closing then only closes", async () => {
    const client = fakeClient(
      handlers(() => [nextPrompt()], {
        "plugins.consent": () => {
          throw new Error("the disk is full");
        },
      }),
    );
    renderApp(client);
    fireEvent.click(within(await dialog()).getByRole("button", { name: "Grant" }));
    expect((await screen.findByRole("alert")).textContent).toContain(
      "Couldn't save your answer: the disk is full",
    );
    fireEvent.click(within(await dialog()).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Plugin consent" })).toBeNull());
    expect(client.callsOf("plugins.consent")).toHaveLength(1);
  });
});

describe("Settings → Plugins capabilities", () => {
  it("shows granted / not granted / pending, and Revoke asks the host", async () => {
    const granted = nextPrompt({
      capabilities: [{ id: "llm.side_question", granted: true }],
      pendingCapabilities: [],
    });
    const client = fakeClient(
      handlers(() => [granted], {
        "plugins.revoke": ({ id, capability }) => {
          expect([id, capability]).toEqual(["next-prompt", "llm.side_question"]);
          return { plugin: nextPrompt({ pendingCapabilities: [] }) };
        },
      }),
    );
    const stores = createAppStores(client);
    connectStoresToHost(client, stores);
    render(
      <StoresProvider stores={stores}>
        <PluginsPage />
      </StoresProvider>,
    );
    const row = await waitFor(() => {
      const el = document.querySelector<HTMLElement>('[data-capability="llm.side_question"]');
      if (!el) throw new Error("no capability row yet");
      return el;
    });
    expect(row.textContent).toContain("Granted");
    const revoke = within(row).getByRole("button", { name: "Revoke Side questions from next-prompt" });
    // Drawn as a button (bordered), not as plain text.
    expect(revoke.className).toContain("btn-secondary");
    fireEvent.click(revoke);
    await waitFor(() => expect(row.textContent).toContain("Not granted"));
    expect(within(row).queryByRole("button", { name: /Revoke/ })).toBeNull();
  });
});

describe("the next-prompt chip", () => {
  it("keeps the plugin's suggestion per chat until that chat's next turn starts; ignores other plugins", async () => {
    const client = fakeClient(handlers(() => [], { "session.list": () => ({ sessions: [] }) }));
    const { stores } = renderApp(client);
    const state = stores.chat.nextPrompt.getState();
    act(() =>
      state.handlePluginEvent({
        pluginId: "next-prompt",
        event: "suggestion",
        sessionId: "s1",
        payload: { text: "Book the dentist" },
      }),
    );
    expect(stores.chat.nextPrompt.getState().suggestions).toEqual({ s1: "Book the dentist" });
    act(() =>
      stores.chat.nextPrompt.getState().handleEvent({
        type: "session.turn.started",
        session_id: "s1",
        payload: { turnId: "t", origin: "person" },
      }),
    );
    expect(stores.chat.nextPrompt.getState().suggestions).toEqual({});
    act(() =>
      stores.chat.nextPrompt.getState().handlePluginEvent({
        pluginId: "other",
        event: "suggestion",
        sessionId: "s1",
        payload: { text: "x" },
      }),
    );
    expect(stores.chat.nextPrompt.getState().suggestions).toEqual({});
  });

  it("a click on the chip hands its text to the message box and the chip goes", async () => {
    const client = fakeClient(handlers(() => []));
    const stores = createAppStores(client);
    const picked: string[] = [];
    stores.chat.nextPrompt.getState().handlePluginEvent({
      pluginId: "next-prompt",
      event: "suggestion",
      sessionId: "s1",
      payload: { text: "Book the dentist" },
    });
    render(
      <StoresProvider stores={stores}>
        <NextPromptChip sessionId="s1" onPick={(text) => picked.push(text)} />
      </StoresProvider>,
    );
    fireEvent.click(screen.getByRole("button", { name: /Book the dentist/ }));
    expect(picked).toEqual(["Book the dentist"]);
    expect(screen.queryByTestId("next-prompt")).toBeNull();
  });
});
