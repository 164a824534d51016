// @vitest-environment happy-dom
/** The shell: first-run welcome, host notices, connection state, and refreshes on host events. */
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { ProviderView } from "../../electron/host/rpc/methods/providers";
import { fakeClient, type Handlers } from "./fake-client";
import { local } from "./chat-fixtures";
import { renderApp } from "./render-app";
import { settingsWith } from "./fake-client.js";

afterEach(cleanup);

const corruptNotice = {
  kind: "config_corrupt",
  message:
    "config.yaml did not parse; it was moved to config.yaml.corrupt-20261129T100000Z and the app started on defaults.",
};

function handlers(overrides: Handlers = {}): Handlers {
  return {
    "host.info": () => ({ version: "1.2.3", mode: "web", home: "/tmp/h", notices: [corruptNotice] }),
    "settings.get": () => settingsWith({}),
    "providers.list": () => ({ providers: [] }),
    ...overrides,
  };
}

describe("App shell", () => {
  it("welcomes a first run and explains what the app is", async () => {
    renderApp(fakeClient(handlers()));
    expect(await screen.findByRole("heading", { name: "Welcome to Hermes Desktop" })).toBeTruthy();
    expect(screen.getByText(/chatting with language models/)).toBeTruthy();
    const nav = screen.getByRole("navigation", { name: "Main" });
    expect(within(nav).getByRole("button", { name: "Chat" }).getAttribute("aria-current")).toBe("page");
    expect(screen.queryByRole("navigation", { name: "Settings" })).toBeNull();
  });

  it("shows host notices as alerts the user can dismiss", async () => {
    renderApp(fakeClient(handlers()));
    const notice = await screen.findByRole("alert");
    expect(notice.textContent).toContain("config.yaml.corrupt-20261129T100000Z");
    fireEvent.click(within(notice).getByRole("button", { name: "Dismiss" }));
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("says the keychain is off on every screen, and on Settings → Providers once, in the page's words", async () => {
    const keychainNotice = {
      kind: "keychain_unavailable",
      message: "No system keychain is available (its library, keytar, is not installed), so …",
    };
    renderApp(
      fakeClient(
        handlers({
          "host.info": () => ({ version: "1.2.3", mode: "web", home: "/tmp/h", notices: [keychainNotice] }),
        }),
      ),
    );
    const onChat = await screen.findByRole("alert");
    expect(onChat.textContent).toContain("No system keychain is available");
    fireEvent.click(
      within(screen.getByRole("navigation", { name: "Main" })).getByRole("button", { name: "Settings" }),
    );
    await screen.findByRole("heading", { name: "Providers" });
    const onProviders = screen
      .getAllByRole("alert")
      .filter((a) => a.textContent?.includes("No system keychain"));
    expect(onProviders).toHaveLength(1);
    expect(onProviders[0]?.className).toContain("inline-alert");
    fireEvent.click(
      within(screen.getByRole("navigation", { name: "Settings" })).getByRole("button", { name: "Models" }),
    );
    await waitFor(() => expect(screen.queryByRole("heading", { name: "Providers" })).toBeNull());
    const onModels = screen
      .getAllByRole("alert")
      .filter((a) => a.textContent?.includes("No system keychain"));
    expect(onModels.map((a) => a.className)).toEqual(["notice"]);
  });

  it("refreshes providers and the main model when settings.changed arrives", async () => {
    let providers: ProviderView[] = [];
    let model = { provider: "", model: "" };
    const client = fakeClient(
      handlers({
        "providers.list": () => ({ providers }),
        "settings.get": () => settingsWith({ model }),
      }),
    );
    renderApp(client);
    await screen.findByRole("heading", { name: "Welcome to Hermes Desktop" });

    providers = [local];
    model = { provider: "local", model: "qwen3-8b" };
    act(() => client.emit({ type: "settings.changed", session_id: null, payload: {} }));

    expect(await screen.findByText("Start a conversation")).toBeTruthy();
    expect(screen.getByText(/Local llama\.cpp · qwen3-8b/)).toBeTruthy();
    expect(client.callsOf("providers.list")).toHaveLength(2);
    // The main model and the chat settings (theme) each read the settings at start and again on the event.
    expect(client.callsOf("settings.get")).toHaveLength(4);
  });

  it("says when the connection is lost and reloads everything once it is back", async () => {
    const client = fakeClient(handlers());
    renderApp(client);
    await screen.findByRole("heading", { name: "Welcome to Hermes Desktop" });

    act(() => client.setStatus("reconnecting"));
    expect(screen.getByRole("status").textContent).toMatch(/Lost the connection to Hermes Desktop/);
    act(() => client.setStatus("connected"));
    expect(screen.queryByRole("status")).toBeNull();
    await waitFor(() => expect(client.callsOf("host.info")).toHaveLength(2));
    expect(client.callsOf("providers.list")).toHaveLength(2);
  });
});
