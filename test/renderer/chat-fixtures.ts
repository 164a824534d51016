/** Host answers for renderer tests: one provider (also used by the settings tests), a main model, and sessions the test scripts. */
import type { ProviderView } from "../../electron/host/rpc/methods/providers";
import type { ChatMessage, SessionListItem } from "../../renderer/src/stores/chat/chat-model";
import type { Handlers } from "./fake-client";
import { settingsWith } from "./fake-client.js";

export const local: ProviderView = {
  id: "local",
  name: "Local llama.cpp",
  base_url: "http://127.0.0.1:8080/v1",
  key_env: null,
  hasKey: false,
  keyHint: null,
};

export function chatHandlers(overrides: Handlers = {}): Handlers {
  return {
    "host.info": () => ({ version: "1.2.3", mode: "web", home: "/tmp/h", notices: [] }),
    "settings.get": () => settingsWith({ model: { provider: "local", model: "qwen3-8b" } }),
    "providers.list": () => ({ providers: [local] }),
    "session.list": () => ({ sessions: [] }),
    "session.messages": () => ({ messages: [] }),
    "session.get": ({ sessionId }) => ({
      sessionId,
      title: "Chat",
      titleState: "set",
      createdAt: 1,
      updatedAt: 1,
      status: "idle",
      runningTurnId: null,
      queued: 0,
      model: { provider: "local", model: "qwen3-8b" },
      systemPrompt: "",
    }),
    ...overrides,
  };
}

export function session(id: string, title: string, updatedAt: number): SessionListItem {
  return { sessionId: id, title, createdAt: updatedAt, updatedAt };
}

export function message(
  fields: Partial<ChatMessage> & Pick<ChatMessage, "id" | "role" | "seq">,
): ChatMessage {
  return { content: "", createdAt: 1, status: "complete", turnId: null, meta: {}, ...fields };
}
