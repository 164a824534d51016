// @vitest-environment happy-dom
/** Settings → Providers → a provider's Model settings (docs/contract.md §9.1): context window and image input per model. */
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, expect, it } from "vitest";
import { HermesRpcError } from "../../renderer/src/api/rpc-error";
import { fakeClient } from "./fake-client";
import { local } from "./chat-fixtures";
import { renderApp } from "./render-app";
import { settingsWith } from "./fake-client.js";
import type { ModelSettings } from "../../electron/host/rpc/methods/settings.js";

afterEach(cleanup);

it("toggles image input, adds a model, and shows a refused value's message", async () => {
  let models: Record<string, ModelSettings> = { "qwen3-8b": { context_window: 32768 } };
  const client = fakeClient({
    "host.info": () => ({ version: "1", mode: "web", home: "/tmp/h", notices: [] }),
    "providers.list": () => ({ providers: [local] }),
    "settings.get": () =>
      settingsWith({
        model: { provider: "local", model: "qwen3-8b" },
        providers: { local: { name: local.name, base_url: local.base_url, models } },
      }),
    "settings.set": ({ key, value }) => {
      if (key !== "providers.local.models") throw new Error(`unexpected ${key}`);
      if ((value as Record<string, { context_window?: number }>)["tiny"]?.context_window === 10) {
        throw new HermesRpcError(
          "invalid_params",
          "providers.local.models.tiny.context_window must be at least 256",
        );
      }
      models = value as Record<string, ModelSettings>;
      return { ok: true };
    },
  });
  renderApp(client);
  fireEvent.click(
    within(screen.getByRole("navigation", { name: "Main" })).getByRole("button", { name: "Settings" }),
  );
  fireEvent.click(
    within(screen.getByRole("navigation", { name: "Settings" })).getByRole("button", { name: "Providers" }),
  );
  const list = await screen.findByRole("list", { name: "Model settings of Local llama.cpp" });
  const qwen = list.querySelector<HTMLElement>('[data-model="qwen3-8b"]')!;
  fireEvent.click(within(qwen).getByLabelText("Takes images"));
  await waitFor(() =>
    expect(client.callsOf("settings.set").at(-1)).toEqual({
      key: "providers.local.models",
      value: { "qwen3-8b": { context_window: 32768, vision: true } },
    }),
  );
  fireEvent.change(screen.getByLabelText("Model id for Local llama.cpp"), { target: { value: "tiny" } });
  fireEvent.click(screen.getByRole("button", { name: "Add model" }));
  await waitFor(() => expect(Object.keys(models)).toEqual(["qwen3-8b", "tiny"]));
  const tiny = await waitFor(() => {
    const found = document.querySelector<HTMLElement>('[data-model="tiny"]');
    if (!found) throw new Error("no tiny row yet");
    return found;
  });
  const windowField = within(tiny).getByLabelText("Context window");
  fireEvent.change(windowField, { target: { value: "10" } });
  fireEvent.blur(windowField);
  expect(await screen.findByText(/must be at least 256/)).toBeTruthy();
});
