// @vitest-environment happy-dom
/** Add/Edit provider: presets, the derived id, saving, save errors, and where the API key goes. */
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { ProviderView, ProvidersSaveParams } from "../../electron/host/rpc/methods/providers";
import { HermesRpcError } from "../../renderer/src/api/rpc-error";
import { deferred, fakeClient, type Handlers } from "./fake-client";
import { renderApp } from "./render-app";
import { settingsWith } from "./fake-client.js";

afterEach(cleanup);

const apiKey = "sk-test-0000-0000-0000-wxyz";
const presetNames = ["OpenRouter", "OpenAI", "llama.cpp server", "Ollama", "LM Studio", "vLLM", "Custom"];

const viewOf = (params: ProvidersSaveParams, id = params.id ?? ""): ProviderView => ({
  id,
  name: params.name,
  base_url: params.base_url,
  key_env: params.key_env ?? null,
  hasKey: Boolean(params.apiKey),
  keyHint: params.apiKey ? params.apiKey.slice(-4) : null,
});

function handlers(overrides: Handlers = {}): Handlers {
  return {
    "host.info": () => ({ version: "1.2.3", mode: "web", home: "/tmp/h", notices: [] }),
    "settings.get": () => settingsWith({}),
    "providers.list": () => ({ providers: [] }),
    ...overrides,
  };
}

const field = (dialog: HTMLElement, label: string) =>
  within(dialog).getByLabelText(label) as HTMLInputElement;
const type = (input: HTMLInputElement, value: string) => fireEvent.change(input, { target: { value } });

async function openAddFromWelcome(): Promise<HTMLElement> {
  fireEvent.click(await screen.findByRole("button", { name: "Add a provider" }));
  return screen.findByRole("dialog", { name: "Add provider" });
}

describe("Add provider", () => {
  it("offers the presets first, then a form the preset fills in", async () => {
    renderApp(fakeClient(handlers()));
    await screen.findByRole("heading", { name: "Welcome to Hermes Desktop" });
    const dialog = await openAddFromWelcome();
    for (const name of presetNames) expect(within(dialog).getByRole("button", { name })).toBeTruthy();
    expect(within(dialog).queryByLabelText("Name")).toBeNull();

    fireEvent.click(within(dialog).getByRole("button", { name: "OpenRouter" }));
    expect(field(dialog, "Name").value).toBe("OpenRouter");
    expect(field(dialog, "Base URL").value).toBe("https://openrouter.ai/api/v1");
    expect(field(dialog, "Key environment variable").value).toBe("OPENROUTER_API_KEY");
    const key = field(dialog, "API key");
    expect(key.type).toBe("password");
    expect(key.getAttribute("autocomplete")).toBe("off");
    expect(dialog.textContent).toContain("Provider ID openrouter");
  });

  it("saves a Custom provider with an id from its name, then forgets the key", async () => {
    const save = deferred<{ provider: ProviderView }>();
    const client = fakeClient(handlers({ "providers.save": () => save.promise }));
    const { stores } = renderApp(client);
    const dialog = await openAddFromWelcome();
    fireEvent.click(within(dialog).getByRole("button", { name: "Custom" }));
    type(field(dialog, "Name"), "My Local Box!");
    type(field(dialog, "Base URL"), "http://127.0.0.1:8080/v1");
    type(field(dialog, "API key"), apiKey);
    expect(dialog.textContent).toContain("Provider ID my-local-box");
    // Uncontrolled on purpose: the key is never mirrored into the value attribute.
    expect(document.documentElement.outerHTML).not.toContain(apiKey);

    fireEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    const saving = await within(dialog).findByRole("button", { name: "Saving…" });
    expect((saving as HTMLButtonElement).disabled).toBe(true);

    const sent = client.callsOf("providers.save")[0] as ProvidersSaveParams;
    // No id: the host derives it from the name (the hint shows the same derivation).
    expect(sent).toEqual({
      name: "My Local Box!",
      base_url: "http://127.0.0.1:8080/v1",
      key_env: null,
      apiKey,
    });
    save.resolve({ provider: viewOf(sent, "my-local-box") });

    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(document.documentElement.outerHTML).not.toContain(apiKey);
    const inputs = Array.from(document.querySelectorAll("input"), (input) => input.value);
    expect(inputs.join("\n")).not.toContain(apiKey);
    const everyStore = [stores.host, stores.providers, stores.mainModel, stores.navigation].map((s) =>
      s.getState(),
    );
    expect(JSON.stringify(everyStore)).not.toContain(apiKey);
    // With a provider, Chat no longer shows the welcome.
    expect(await screen.findByText("Choose a main model")).toBeTruthy();
  });

  it("keeps the dialog open with its fields when the save fails, and shows why", async () => {
    const message =
      "The OS keychain is not available, so saving the key failed: locked. Unlock it, or set `key_env` on the provider.";
    const client = fakeClient(
      handlers({
        "providers.save": () => {
          throw new HermesRpcError("keychain_unavailable", message);
        },
      }),
    );
    renderApp(client);
    const dialog = await openAddFromWelcome();
    fireEvent.click(within(dialog).getByRole("button", { name: "OpenAI" }));
    type(field(dialog, "API key"), apiKey);
    fireEvent.click(within(dialog).getByRole("button", { name: "Save" }));

    const alert = await within(dialog).findByRole("alert");
    expect(alert.textContent).toBe(message);
    expect(screen.getByRole("dialog", { name: "Add provider" })).toBe(dialog);
    expect(field(dialog, "Name").value).toBe("OpenAI");
    expect(field(dialog, "Base URL").value).toBe("https://api.openai.com/v1");
    expect(field(dialog, "API key").value).toBe(apiKey);
    expect((within(dialog).getByRole("button", { name: "Save" }) as HTMLButtonElement).disabled).toBe(false);
  });

  it("marks the field the host refused, with the host's words, and keeps the fields", async () => {
    const message = "Use a full URL that starts with http:// or https://.";
    const client = fakeClient(
      handlers({
        "providers.save": () => {
          throw new HermesRpcError("invalid_params", message, { key: "base_url" });
        },
      }),
    );
    renderApp(client);
    const dialog = await openAddFromWelcome();
    fireEvent.click(within(dialog).getByRole("button", { name: "Custom" }));
    type(field(dialog, "Name"), "Box");
    type(field(dialog, "Base URL"), "ftp://box");
    fireEvent.click(within(dialog).getByRole("button", { name: "Save" }));

    expect(await within(dialog).findByText(message)).toBeTruthy();
    expect(field(dialog, "Base URL").getAttribute("aria-invalid")).toBe("true");
    expect(field(dialog, "Name").getAttribute("aria-invalid")).not.toBe("true");
    expect(field(dialog, "Base URL").value).toBe("ftp://box");
    // Typing in the field clears its mark.
    type(field(dialog, "Base URL"), "https://box/v1");
    expect(field(dialog, "Base URL").getAttribute("aria-invalid")).not.toBe("true");
  });
});

describe("Edit provider", () => {
  it("keeps the stored key unless a new one is typed", async () => {
    const existing: ProviderView = {
      id: "openrouter",
      name: "OpenRouter",
      base_url: "https://openrouter.ai/api/v1",
      key_env: null,
      hasKey: true,
      keyHint: "wxyz",
    };
    const client = fakeClient(
      handlers({
        "providers.list": () => ({ providers: [existing] }),
        "providers.save": (params) => ({ provider: { ...existing, name: params.name } }),
      }),
    );
    renderApp(client);
    fireEvent.click(
      within(screen.getByRole("navigation", { name: "Main" })).getByRole("button", { name: "Settings" }),
    );
    const row = await waitFor(() => {
      const element = document.querySelector<HTMLElement>('[data-provider="openrouter"]');
      if (!element) throw new Error("row not rendered yet");
      return element;
    });
    fireEvent.click(within(row).getByRole("button", { name: "Edit" }));

    const dialog = await screen.findByRole("dialog", { name: "Edit provider" });
    expect(field(dialog, "API key").placeholder).toBe("Key set — leave empty to keep it");
    expect(within(dialog).queryByRole("button", { name: "Custom" })).toBeNull();
    type(field(dialog, "Name"), "OpenRouter (work)");
    fireEvent.click(within(dialog).getByRole("button", { name: "Save" }));

    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(client.callsOf("providers.save")).toEqual([
      {
        id: "openrouter",
        name: "OpenRouter (work)",
        base_url: "https://openrouter.ai/api/v1",
        key_env: null,
      },
    ]);
    expect(row.textContent).toContain("OpenRouter (work)");
  });
});
