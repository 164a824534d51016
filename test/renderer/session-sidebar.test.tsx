// @vitest-environment happy-dom
/** The session sidebar: newest first, search with snippets, inline rename, delete with undo. */
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { UNDO_DELETE_MS } from "../../renderer/src/stores/chat/session-list-store";
import { chatHandlers, session } from "./chat-fixtures";
import { fakeClient } from "./fake-client";
import { renderApp } from "./render-app";
import { lastChatIn } from "../../renderer/src/stores/chat/last-chat";
import { createAppStores } from "../../renderer/src/stores/app-stores";

afterEach(cleanup);

const sessions = [session("s2", "Trip to Lisbon", 20), session("s1", "Tax questions", 10)];

function client() {
  return fakeClient(
    chatHandlers({
      "session.list": ({ query }) =>
        query
          ? {
              sessions: [
                {
                  ...session("s1", "Tax questions", 10),
                  snippet: {
                    messageId: "m1",
                    text: "the deduction for home offices",
                    highlights: [{ start: 4, end: 13 }],
                  },
                },
              ],
            }
          : { sessions },
      "session.rename": () => ({}),
      "session.delete": () => ({}),
    }),
  );
}

const rows = async () =>
  within(await screen.findByRole("navigation", { name: "Chats" })).findAllByRole("listitem");

describe("Session sidebar", () => {
  it("lists chats as the host orders them (newest first) and opens one", async () => {
    const c = client();
    const { stores } = renderApp(c);
    expect((await rows()).map((r) => r.querySelector(".session-title")?.textContent)).toEqual([
      "Trip to Lisbon",
      "Tax questions",
    ]);
    fireEvent.click(screen.getByRole("button", { name: "Tax questions" }));
    expect(stores.chat.sessions.getState().selectedId).toBe("s1");
    await waitFor(() => expect(c.callsOf("session.messages")).toEqual([{ sessionId: "s1" }]));
    expect(screen.getByRole("heading", { level: 1, name: "Tax questions" })).toBeTruthy();
  });

  it("searches titles and message text and shows the matching snippet", async () => {
    const c = client();
    renderApp(c);
    await rows();
    fireEvent.change(screen.getByRole("searchbox", { name: "Search chats" }), {
      target: { value: "deduction" },
    });
    const results = await screen.findByRole("navigation", { name: "Search results" });
    const hit = await within(results).findByRole("listitem");
    expect(hit.textContent).toContain("Tax questions");
    expect(hit.querySelector("mark")?.textContent).toBe("deduction");
    expect(c.callsOf("session.list")).toContainEqual({ query: "deduction" });

    fireEvent.change(screen.getByRole("searchbox", { name: "Search chats" }), { target: { value: "" } });
    expect(await rows()).toHaveLength(2);
  });

  it("renames a chat in place", async () => {
    const c = client();
    renderApp(c);
    const [first] = await rows();
    fireEvent.click(within(first as HTMLElement).getByRole("button", { name: "Rename" }));
    const input = screen.getByRole("textbox", { name: "Chat title" });
    fireEvent.change(input, { target: { value: "Lisbon in May" } });
    fireEvent.submit(input.closest("form") as HTMLFormElement);
    expect(await screen.findByRole("button", { name: "Lisbon in May" })).toBeTruthy();
    expect(c.callsOf("session.rename")).toEqual([{ sessionId: "s2", title: "Lisbon in May" }]);
  });

  it("hides a deleted chat at once, brings it back on Undo, and deletes it when the window closes", async () => {
    const c = client();
    const { stores } = renderApp(c);
    const [first] = await rows();
    fireEvent.click(within(first as HTMLElement).getByRole("button", { name: "Delete" }));
    expect(await rows()).toHaveLength(1);
    expect(screen.getByText(/Deleted “Trip to Lisbon”/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Undo" }));
    expect(await rows()).toHaveLength(2);
    expect(c.callsOf("session.delete")).toHaveLength(0);

    fireEvent.click(within((await rows())[0] as HTMLElement).getByRole("button", { name: "Delete" }));
    expect(screen.getByText(/Deleted “Trip to Lisbon”/)).toBeTruthy();
    await act(() => stores.chat.sessions.getState().commitDelete());
    expect(c.callsOf("session.delete")).toEqual([{ sessionId: "s2" }]);
    expect((await rows()).map((r) => r.textContent)).toEqual([expect.stringContaining("Tax questions")]);
  });

  it("keeps Undo for 10 seconds, and Dismiss deletes at once", async () => {
    const c = client();
    const { stores } = renderApp(c);
    const [first] = await rows();
    vi.useFakeTimers();
    try {
      fireEvent.click(within(first as HTMLElement).getByRole("button", { name: "Delete" }));
      act(() => void vi.advanceTimersByTime(UNDO_DELETE_MS - 100));
      expect(UNDO_DELETE_MS).toBe(10_000);
      expect(c.callsOf("session.delete")).toHaveLength(0);
      expect(screen.getByRole("button", { name: "Undo" })).toBeTruthy();
      act(() => void vi.advanceTimersByTime(100));
      expect(c.callsOf("session.delete")).toEqual([{ sessionId: "s2" }]);
    } finally {
      vi.useRealTimers();
    }
    await waitFor(() => expect(screen.queryByRole("button", { name: "Undo" })).toBeNull());
    stores.chat.sessions.getState().requestDelete("s1");
    fireEvent.click(await screen.findByRole("button", { name: "Dismiss" }));
    await waitFor(() =>
      expect(c.callsOf("session.delete")).toEqual([{ sessionId: "s2" }, { sessionId: "s1" }]),
    );
    expect(screen.queryByRole("button", { name: "Undo" })).toBeNull();
  });

  it("a reload reopens the chat that was open; one deleted meanwhile gives a new chat", async () => {
    const storage = new Map<string, string>();
    const memory = lastChatIn({
      getItem: (k) => storage.get(k) ?? null,
      setItem: (k, v) => void storage.set(k, v),
      removeItem: (k) => void storage.delete(k),
    });
    const first = createAppStores(client(), { chat: { lastChat: memory } });
    first.chat.sessions.getState().select("s1");

    // The window reloads: new stores on the same storage.
    const c = client();
    const { stores } = renderApp(c, { chat: { lastChat: memory } });
    await waitFor(() => expect(stores.chat.sessions.getState().selectedId).toBe("s1"));
    expect(stores.chat.transcript.getState().sessionId).toBe("s1");
    cleanup();

    storage.set("hermes-desktop.last-chat", "gone");
    const again = renderApp(client(), { chat: { lastChat: memory } });
    await waitFor(() => expect(again.stores.chat.sessions.getState().sessions.kind).toBe("ready"));
    expect(again.stores.chat.sessions.getState().selectedId).toBeNull();
    expect(memory.read()).toBeNull();
  });
});
