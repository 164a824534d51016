// @vitest-environment happy-dom
/** The composer: Enter/Shift+Enter, busy input while a reply streams, /steer, slash autocomplete, disabled state. */
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { HostEvent } from "../../renderer/src/api/client";
import { HermesRpcError } from "../../renderer/src/api/rpc-error";
import { chatHandlers, session } from "./chat-fixtures";
import { fakeClient, type Handlers } from "./fake-client";
import { renderApp } from "./render-app";
import { settingsWith } from "./fake-client.js";

afterEach(cleanup);

const started = (turnId: string): HostEvent => ({
  type: "session.turn.started",
  session_id: "s1",
  payload: { turnId, origin: "person" },
});

function client(overrides: Handlers = {}) {
  return fakeClient(
    chatHandlers({
      "session.create": () => ({ sessionId: "s1" }),
      "session.send": () => ({ turnId: "t1", disposition: "started" }),
      "plugins.commands": () => ({
        commands: [{ name: "tldr", description: "Summarise a page", argsHint: "<url>", pluginId: "tldr" }],
      }),
      ...overrides,
    }),
  );
}

const messageBox = () => screen.findByRole("combobox", { name: "Message" }) as Promise<HTMLTextAreaElement>;

describe("Composer", () => {
  it("sends on Enter (creating the chat) and adds a line on Shift+Enter", async () => {
    const c = client();
    renderApp(c);
    const box = await messageBox();
    fireEvent.change(box, { target: { value: "Hello" } });
    fireEvent.keyDown(box, { key: "Enter", shiftKey: true });
    expect(c.callsOf("session.send")).toHaveLength(0);
    fireEvent.keyDown(box, { key: "Enter" });
    await waitFor(() => expect(c.callsOf("session.send")).toEqual([{ sessionId: "s1", text: "Hello" }]));
    expect(c.callsOf("session.create")).toHaveLength(1);
    await waitFor(() => expect(box.value).toBe(""));
  });

  it("while a reply streams, follows the busy-input setting and says what happened", async () => {
    const c = client({
      "session.list": () => ({ sessions: [session("s1", "Chat", 1)] }),
      "settings.get": () =>
        settingsWith({
          model: { provider: "local", model: "qwen3-8b" },
          display: { busy_input_mode: "steer" },
        }),
      "session.send": () => ({ turnId: "t1", disposition: "steered" }),
    });
    const { stores } = renderApp(c);
    await screen.findByRole("navigation", { name: "Chats" });
    act(() => stores.chat.sessions.getState().select("s1"));
    const box = await messageBox();
    act(() => c.emit(started("t1")));
    await waitFor(() => expect(box.placeholder).toMatch(/steers it with your message/));

    fireEvent.change(box, { target: { value: "Shorter, please" } });
    fireEvent.keyDown(box, { key: "Enter" });
    expect(await screen.findByText(/Steered: your message went into the reply/)).toBeTruthy();
    // The mode is the host's to apply; the composer sends no override for a plain message.
    expect(c.callsOf("session.send")).toEqual([{ sessionId: "s1", text: "Shorter, please" }]);
  });

  it("sends /steer as typed: the host owns the rule that it steers in any mode", async () => {
    const c = client({ "session.list": () => ({ sessions: [session("s1", "Chat", 1)] }) });
    const { stores } = renderApp(c);
    await screen.findByRole("navigation", { name: "Chats" });
    act(() => stores.chat.sessions.getState().select("s1"));
    const box = await messageBox();
    fireEvent.change(box, { target: { value: "/steer keep it short" } });
    fireEvent.keyDown(box, { key: "Enter" });
    await waitFor(() =>
      expect(c.callsOf("session.send")).toEqual([{ sessionId: "s1", text: "/steer keep it short" }]),
    );
  });

  it("autocompletes slash commands by keyboard, with their argument hints", async () => {
    renderApp(client());
    const box = await messageBox();
    fireEvent.change(box, { target: { value: "/" } });
    const list = await screen.findByRole("listbox", { name: "Commands" });
    const options = within(list).getAllByRole("option");
    expect(options.map((o) => o.textContent)).toEqual([
      expect.stringContaining("/steer <guidance>"),
      expect.stringContaining("/tldr <url>"),
    ]);
    expect(options[0]?.getAttribute("aria-selected")).toBe("true");
    fireEvent.keyDown(box, { key: "ArrowDown" });
    expect(within(list).getAllByRole("option")[1]?.getAttribute("aria-selected")).toBe("true");
    expect(box.getAttribute("aria-activedescendant")).toBe(within(list).getAllByRole("option")[1]?.id);
    fireEvent.keyDown(box, { key: "Enter" });
    expect(box.value).toBe("/tldr ");
    expect(screen.queryByRole("listbox", { name: "Commands" })).toBeNull();

    fireEvent.change(box, { target: { value: "/st" } });
    expect(within(await screen.findByRole("listbox")).getAllByRole("option")).toHaveLength(1);
    fireEvent.keyDown(box, { key: "Escape" });
    expect(screen.queryByRole("listbox")).toBeNull();
  });

  it("still offers /steer when the host has no plugin commands method", async () => {
    renderApp(
      client({
        "plugins.commands": () => {
          throw new HermesRpcError("method_not_found", "no such method");
        },
      }),
    );
    const box = await messageBox();
    fireEvent.change(box, { target: { value: "/" } });
    const list = await screen.findByRole("listbox", { name: "Commands" });
    expect(
      within(list)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual([expect.stringContaining("/steer")]);
  });

  it("is disabled with the reason and a way to Settings → Models when no main model is set", async () => {
    const c = client({ "settings.get": () => settingsWith({}) });
    const { stores } = renderApp(c);
    const box = await messageBox();
    await waitFor(() => expect(box.disabled).toBe(true));
    expect(screen.getByText("Chat needs a main model.")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Open Settings → Models" }));
    expect(stores.navigation.getState().screen).toEqual({ name: "settings", section: "models" });
  });
});

describe("attaching an image", () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
  const attach = (files: File[]) =>
    act(() => {
      fireEvent.change(screen.getByTestId("attach-image-input"), { target: { files } });
    });

  it("refuses a text file named .png when it is attached, by its bytes, and takes a real one", async () => {
    renderApp(client());
    await messageBox();
    await attach([new File(["just some text, not an image"], "notes.png", { type: "image/png" })]);
    expect((await screen.findByRole("alert")).textContent).toBe(
      '"notes.png" is not an image the app can send (its contents are not PNG, JPEG, WebP or GIF, whatever its name says).',
    );
    expect(screen.queryByRole("list", { name: "Attached images" })).toBeNull();

    await attach([new File([png], "real.png", { type: "image/png" })]);
    const list = await screen.findByRole("list", { name: "Attached images" });
    expect(within(list).getAllByRole("listitem")).toHaveLength(1);
    expect(screen.queryByRole("alert")).toBeNull();
  });
});
