// @vitest-environment happy-dom
/** Streaming into the transcript: deltas coalesce per animation frame and touch only their message. */
import { act, cleanup, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { createTranscriptStore } from "../../renderer/src/stores/chat/transcript-store";
import type { HostEvent } from "../../renderer/src/api/client";
import { toChatEvent } from "../../renderer/src/stores/chat/chat-model";
import type { EventPayloads, SessionEventName } from "../../electron/host/rpc/events";
import { chatHandlers, message, session } from "./chat-fixtures";
import { fakeClient } from "./fake-client";
import { renderApp } from "./render-app";

afterEach(cleanup);

const question = message({ id: "u1", role: "user", seq: 0, content: "Hi", turnId: "t1" });
const reply = message({ id: "a1", role: "assistant", seq: 1, status: "streaming", turnId: "t1" });

const frame = <E extends SessionEventName>(type: E, payload: EventPayloads[E]): HostEvent =>
  ({ type, session_id: "s1", payload }) as HostEvent;

/** A frame scheduler the test runs by hand, counting how often a flush was asked for. */
function manualFrames() {
  const queue: Array<() => void> = [];
  return {
    schedule: (flush: () => void) => {
      queue.push(flush);
      return () => void queue.splice(queue.indexOf(flush), 1);
    },
    pending: () => queue.length,
    run: () => queue.splice(0).forEach((flush) => flush()),
  };
}

/** The transcript store on session s1 (question and streaming reply), frames run by hand, events applied as the app does. */
async function openStreaming(
  messages: () => { messages: ReturnType<typeof message>[] } = () => ({ messages: [question, reply] }),
) {
  const client = fakeClient(chatHandlers({ "session.messages": messages }));
  const frames = manualFrames();
  const store = createTranscriptStore(client, { scheduleFrame: frames.schedule });
  await store.getState().open("s1");
  const apply = (e: HostEvent) => {
    const event = toChatEvent(e);
    if (event) store.getState().handleEvent(event);
  };
  return { store, frames, apply };
}

describe("transcript streaming", () => {
  it("applies a burst of deltas in one update per frame, replacing only the streaming message", async () => {
    const client = fakeClient(chatHandlers({ "session.messages": () => ({ messages: [question, reply] }) }));
    const frames = manualFrames();
    const store = createTranscriptStore(client, { scheduleFrame: frames.schedule });
    await store.getState().open("s1");
    const before = store.getState().messages;
    let updates = 0;
    store.subscribe(() => updates++);

    for (let i = 0; i < 200; i++) {
      const event = toChatEvent(frame("session.delta", { turnId: "t1", text: `w${i} ` }));
      if (event) store.getState().handleEvent(event);
    }
    expect(updates).toBe(0);
    expect(frames.pending()).toBe(1);

    frames.run();
    expect(updates).toBe(1);
    const after = store.getState().messages;
    if (after.kind !== "ready" || before.kind !== "ready") throw new Error("transcript not loaded");
    expect(after.data[1]?.content.startsWith("w0 w1 w2")).toBe(true);
    expect(after.data[1]?.content.trim().endsWith("w199")).toBe(true);
    expect(after.data[0]).toBe(before.data[0]); // the question kept its identity: its row won't re-render
  });

  it("flushes pending text before the final message so nothing is applied twice or lost", async () => {
    const { store, frames, apply } = await openStreaming();
    apply(frame("session.turn.started", { turnId: "t1", origin: "person" }));
    apply(frame("session.delta", { turnId: "t1", text: "Hello" }));
    apply(frame("session.message", { message: { ...reply, content: "Hello world", status: "complete" } }));
    apply(frame("session.turn.finished", { turnId: "t1", status: "ok" }));
    frames.run();
    const state = store.getState();
    expect(state.messages.kind === "ready" && state.messages.data[1]?.content).toBe("Hello world");
    expect(state.runningTurnId).toBeNull();
  });

  it("a reply that ends without its text (sameContent) keeps the streamed text; one never held is read again", async () => {
    let loads = 0;
    const { store, frames, apply } = await openStreaming(() => {
      loads++;
      return { messages: [question, reply] };
    });
    apply(frame("session.delta", { turnId: "t1", text: "Hello" }));
    frames.run();
    apply(frame("session.delta", { turnId: "t1", text: " world" }));
    const { content: _text, ...ended } = { ...reply, status: "complete" as const, meta: { model: "m" } };
    apply(frame("session.message", { message: ended, sameContent: true }));
    const state = store.getState();
    if (state.messages.kind !== "ready") throw new Error("transcript not loaded");
    expect(state.messages.data[1]).toEqual({ ...ended, content: "Hello world" }); // no streamed pieces left
    expect(loads).toBe(1);

    const { content: _other, ...unknown } = message({ id: "a9", role: "assistant", seq: 5, turnId: "t9" });
    apply(frame("session.message", { message: unknown, sameContent: true }));
    await waitFor(() => expect(loads).toBe(2));
  });

  it("shows a streamed reply in the page and its error in plain words when the turn fails", async () => {
    const client = fakeClient(
      chatHandlers({
        "session.list": () => ({ sessions: [session("s1", "Greetings", 5)] }),
        "session.messages": () => ({ messages: [question, reply] }),
      }),
    );
    const { stores } = renderApp(client);
    await screen.findByRole("navigation", { name: "Chats" });
    act(() => stores.chat.sessions.getState().select("s1"));
    const article = await screen.findByRole("article", { name: "Reply" });

    act(() => {
      client.emit(frame("session.turn.started", { turnId: "t1", origin: "person" }));
      for (const word of ["The ", "**answer** ", "streams"])
        client.emit(frame("session.delta", { turnId: "t1", text: word }));
    });
    await waitFor(() => expect(article.textContent).toContain("The answer streams"));
    expect(within(article).getByText("answer").tagName).toBe("STRONG");
    expect(screen.getByRole("button", { name: "Stop" })).toBeTruthy();

    act(() => {
      client.emit(
        frame("session.message", {
          message: {
            ...reply,
            content: "The **answer** streams",
            status: "error",
            meta: { error: "The provider closed the connection mid-reply." },
          },
        }),
      );
      client.emit(frame("session.turn.finished", { turnId: "t1", status: "error", error: "closed" }));
    });
    expect((await within(article).findByRole("alert")).textContent).toContain(
      "The provider closed the connection mid-reply.",
    );
    expect(article.textContent).toContain("The answer streams");
    expect(screen.queryByRole("button", { name: "Stop" })).toBeNull();
  });
});
