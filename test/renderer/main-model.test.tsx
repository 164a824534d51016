// @vitest-environment happy-dom
/** Settings → Models → Main: current choice on load, the model combobox, saving, failures. */
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { ProviderView } from "../../electron/host/rpc/methods/providers";
import { HermesRpcError } from "../../renderer/src/api/rpc-error";
import { deferred, fakeClient, type Handlers } from "./fake-client";
import { renderApp } from "./render-app";
import { settingsWith } from "./fake-client.js";

afterEach(cleanup);

const provider = (id: string, name: string): ProviderView => ({
  id,
  name,
  base_url: `http://127.0.0.1:9/${id}/v1`,
  key_env: null,
  hasKey: false,
  keyHint: null,
});
const local = provider("local", "Local llama.cpp");
const cloud = provider("cloud", "Cloud");

function handlers(overrides: Handlers = {}): Handlers {
  return {
    "host.info": () => ({ version: "1.2.3", mode: "web", home: "/tmp/h", notices: [] }),
    "settings.get": () => settingsWith({ model: { provider: "local", model: "qwen3-8b" } }),
    "providers.list": () => ({ providers: [local, cloud] }),
    "providers.models": ({ id }) => ({
      models: id === "cloud" ? ["fake/chat-small", "fake/chat-large", "fake/vision"] : ["qwen3-8b"],
    }),
    "model.set": (params) =>
      params.scope === "main"
        ? { ok: true, scope: "main", provider: params.provider, model: params.model, stale_aux: [] }
        : { ok: true, scope: "auxiliary", tasks: [] },
    ...overrides,
  };
}

async function openMainTab() {
  fireEvent.click(
    within(screen.getByRole("navigation", { name: "Main" })).getByRole("button", { name: "Settings" }),
  );
  fireEvent.click(
    within(screen.getByRole("navigation", { name: "Settings" })).getByRole("button", { name: "Models" }),
  );
  expect(
    within(screen.getByRole("tablist")).getByRole("tab", { name: "Main" }).getAttribute("aria-selected"),
  ).toBe("true");
  await screen.findByRole("heading", { name: "Main model" });
}

const providerSelect = () => screen.getByLabelText("Provider") as HTMLSelectElement;
const modelBox = () => screen.getByRole("combobox", { name: "Model" }) as HTMLInputElement;
const optionTexts = () =>
  within(screen.getByRole("listbox"))
    .getAllByRole("option")
    .map((o) => o.textContent);

describe("Settings → Models → Main", () => {
  it("shows the current main model on load", async () => {
    renderApp(fakeClient(handlers()));
    await openMainTab();
    await waitFor(() => expect(modelBox().value).toBe("qwen3-8b"));
    expect(providerSelect().selectedOptions[0]?.textContent).toBe("Local llama.cpp");
    expect(Array.from(providerSelect().options, (o) => o.textContent)).toEqual(["Local llama.cpp", "Cloud"]);
  });

  it("loads the chosen provider's models, filters them as you type, and saves the pick", async () => {
    const models = deferred<{ models: string[] }>();
    const client = fakeClient(
      handlers({ "providers.models": ({ id }) => (id === "cloud" ? models.promise : { models: [] }) }),
    );
    renderApp(client);
    await openMainTab();
    await waitFor(() => expect(modelBox().value).toBe("qwen3-8b"));

    fireEvent.change(providerSelect(), { target: { value: "cloud" } });
    expect(modelBox().value).toBe("");
    expect(await screen.findByText("Loading models…")).toBeTruthy();
    models.resolve({ models: ["fake/chat-small", "fake/chat-large", "fake/vision"] });
    await waitFor(() => expect(screen.queryByText("Loading models…")).toBeNull());

    fireEvent.click(modelBox());
    expect(modelBox().getAttribute("aria-expanded")).toBe("true");
    expect(optionTexts()).toEqual(["fake/chat-small", "fake/chat-large", "fake/vision"]);
    fireEvent.change(modelBox(), { target: { value: "large" } });
    expect(optionTexts()).toEqual(["fake/chat-large"]);
    fireEvent.click(within(screen.getByRole("listbox")).getByRole("option", { name: "fake/chat-large" }));
    expect(modelBox().value).toBe("fake/chat-large");
    expect(screen.queryByRole("listbox")).toBeNull();

    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    const status = await screen.findByText("Saved: Cloud · fake/chat-large");
    expect(status.closest('[role="status"]')).toBeTruthy();
    expect(client.callsOf("model.set")).toEqual([
      { scope: "main", provider: "cloud", model: "fake/chat-large" },
    ]);
  });

  it("supports the keyboard: arrows move through options, Enter picks, Escape closes", async () => {
    renderApp(
      fakeClient(
        handlers({ "settings.get": () => settingsWith({ model: { provider: "cloud", model: "" } }) }),
      ),
    );
    await openMainTab();
    await waitFor(() => expect(providerSelect().value).toBe("cloud"));
    await waitFor(() => expect(screen.queryByText("Loading models…")).toBeNull());

    fireEvent.keyDown(modelBox(), { key: "ArrowDown" });
    fireEvent.keyDown(modelBox(), { key: "ArrowDown" });
    const active = modelBox().getAttribute("aria-activedescendant");
    expect(active && document.getElementById(active)?.textContent).toBe("fake/chat-large");
    fireEvent.keyDown(modelBox(), { key: "Enter" });
    expect(modelBox().value).toBe("fake/chat-large");

    fireEvent.keyDown(modelBox(), { key: "ArrowDown" });
    expect(screen.getByRole("listbox")).toBeTruthy();
    fireEvent.keyDown(modelBox(), { key: "Escape" });
    expect(screen.queryByRole("listbox")).toBeNull();
  });

  it("explains a failed model list and still lets you type and save a model id", async () => {
    const client = fakeClient(
      handlers({
        "providers.models": () => {
          throw new HermesRpcError("provider_error", "Cloud answered 401: invalid API key.");
        },
      }),
    );
    renderApp(client);
    await openMainTab();
    fireEvent.change(providerSelect(), { target: { value: "cloud" } });
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Cloud answered 401: invalid API key.");

    fireEvent.change(modelBox(), { target: { value: "vendor/typed-by-hand" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Saved: Cloud · vendor/typed-by-hand")).toBeTruthy();
  });

  it("shows a save error and no Saved line when the host refuses", async () => {
    renderApp(
      fakeClient(
        handlers({
          "model.set": () => {
            throw new HermesRpcError("invalid_params", "model.provider must be a configured provider", {
              key: "model.provider",
            });
          },
        }),
      ),
    );
    await openMainTab();
    await waitFor(() => expect(modelBox().value).toBe("qwen3-8b"));
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "model.provider must be a configured provider",
    );
    expect(screen.getByRole("status").textContent).toBe("");
  });
});
