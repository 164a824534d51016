// @vitest-environment happy-dom
/**
 * A failed reply says what to do (README: Resend after an error; docs/contract.md §9.1): Resend on the
 * failed reply itself, "Choose a model" when the provider has no such model (the chat's model
 * list, every model of the provider), and only the error that just came in is announced.
 */
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { EventPayloads, SessionEventName } from "../../electron/host/rpc/events";
import type { HostEvent } from "../../renderer/src/api/client";
import { chatHandlers, message, session } from "./chat-fixtures";
import { fakeClient, type Handlers } from "./fake-client";
import { renderApp } from "./render-app";

afterEach(cleanup);

const frame = <E extends SessionEventName>(type: E, payload: EventPayloads[E]): HostEvent =>
  ({ type, session_id: "s1", payload }) as HostEvent;

const question = message({ id: "u1", role: "user", seq: 0, content: "Hi", turnId: "t1" });
const failed = (meta: Record<string, unknown>) =>
  message({ id: "a1", role: "assistant", seq: 1, status: "error", turnId: "t1", meta });

async function openChat(messages: ReturnType<typeof message>[], overrides: Handlers = {}) {
  const client = fakeClient(
    chatHandlers({
      "session.list": () => ({ sessions: [session("s1", "Greetings", 5)] }),
      "session.messages": () => ({ messages }),
      "session.regenerate": () => ({ turnId: "t2" }),
      ...overrides,
    }),
  );
  const { stores } = renderApp(client);
  await screen.findByRole("navigation", { name: "Chats" });
  act(() => stores.chat.sessions.getState().select("s1"));
  const article = await screen.findByRole("article", { name: "Reply" });
  return { client, article };
}

describe("a failed reply", () => {
  it("offers Resend on the reply itself, which asks for the reply again", async () => {
    const { client, article } = await openChat([question, failed({ error: "Main answered 503." })]);
    fireEvent.click(within(article).getByRole("button", { name: "Resend" }));
    await waitFor(() => expect(client.callsOf("session.regenerate")).toEqual([{ sessionId: "s1" }]));
    // Not offered twice under another name.
    expect(within(article).queryByRole("button", { name: "Regenerate" })).toBeNull();
  });

  it("announces an error that came in while shown, not one from before (and not an old one again)", async () => {
    const { client, article } = await openChat([question, failed({ error: "Old failure." })]);
    expect(within(article).getByText("Old failure.")).toBeTruthy();
    expect(within(article).queryByRole("alert")).toBeNull();

    const question2 = message({ id: "u2", role: "user", seq: 2, content: "Again", turnId: "t2" });
    const reply2 = message({ id: "a2", role: "assistant", seq: 3, status: "streaming", turnId: "t2" });
    act(() => {
      client.emit(frame("session.turn.started", { turnId: "t2", origin: "person" }));
      client.emit(frame("session.message", { message: question2 }));
      client.emit(frame("session.message", { message: reply2 }));
      client.emit(
        frame("session.message", {
          message: { ...reply2, status: "error", meta: { error: "New failure." } },
        }),
      );
      client.emit(frame("session.turn.finished", { turnId: "t2", status: "error", error: "New failure." }));
    });
    const alerts = await screen.findAllByRole("alert");
    expect(alerts.map((a) => a.textContent)).toEqual([expect.stringContaining("New failure.")]);

    // The next turn: the failure before it is history, shown but not announced.
    act(() => client.emit(frame("session.turn.started", { turnId: "t3", origin: "person" })));
    await waitFor(() => expect(screen.queryAllByRole("alert")).toHaveLength(0));
    expect(screen.getByText("New failure.")).toBeTruthy();
  });

  it("a model the provider does not have offers the chat's model list, with every model of the provider", async () => {
    let list = ["qwen3-8b"];
    const { client, article } = await openChat(
      [
        question,
        failed({
          error: 'Local llama.cpp has no model "qwen3-8b" (it answered 404). Pick one from its model list.',
          missingModel: { provider: "local", model: "qwen3-8b" },
        }),
      ],
      { "providers.models": () => ({ models: list }) },
    );
    fireEvent.click(within(article).getByRole("button", { name: "Choose a model" }));
    let dialog = await screen.findByRole("dialog", { name: "Model for this chat" });
    await waitFor(() => expect(client.callsOf("providers.models")).toHaveLength(1));
    fireEvent.keyDown(dialog, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    // The provider's list changed since it was read: opening again reads it again.
    list = ["llama-3.2-3b", "mistral-7b", "qwen3-8b"];
    fireEvent.click(within(article).getByRole("button", { name: "Choose a model" }));
    dialog = await screen.findByRole("dialog", { name: "Model for this chat" });
    const box = within(dialog).getByRole("combobox", { name: "Model" }) as HTMLInputElement;
    fireEvent.click(box);
    const options = within(await within(dialog).findByRole("listbox", { name: "Models" })).getAllByRole(
      "option",
    );
    expect(options.map((o) => o.textContent)).toEqual(["llama-3.2-3b", "mistral-7b", "qwen3-8b"]);
  });

  it("the model list is not narrowed by the chat's model when it is not in the list, only by typing", async () => {
    const { article } = await openChat(
      [question, failed({ error: "x", missingModel: { provider: "local", model: "gone-model" } })],
      {
        "providers.models": () => ({ models: ["llama-3.2-3b", "qwen3-8b"] }),
        "session.get": ({ sessionId }) => ({
          sessionId,
          title: "Chat",
          titleState: "set",
          createdAt: 1,
          updatedAt: 1,
          status: "idle",
          runningTurnId: null,
          queued: 0,
          model: { provider: "local", model: "gone-model" },
          systemPrompt: "",
        }),
      },
    );
    await waitFor(() =>
      expect(screen.getByRole("button", { name: /^Model for this chat/ }).textContent).toContain(
        "gone-model",
      ),
    );
    fireEvent.click(within(article).getByRole("button", { name: "Choose a model" }));
    const dialog = await screen.findByRole("dialog", { name: "Model for this chat" });
    const box = within(dialog).getByRole("combobox", { name: "Model" }) as HTMLInputElement;
    expect(box.value).toBe("gone-model");
    const models = async () =>
      within(await within(dialog).findByRole("listbox", { name: "Models" }))
        .getAllByRole("option")
        .map((o) => o.textContent);
    fireEvent.click(box);
    expect(await models()).toEqual(["llama-3.2-3b", "qwen3-8b"]);
    fireEvent.change(box, { target: { value: "qwen" } });
    expect(await models()).toEqual(["qwen3-8b"]);
  });
});
