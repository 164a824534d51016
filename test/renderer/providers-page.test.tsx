// @vitest-environment happy-dom
/** Settings → Providers: rows, key state, Test connection's states, removal, the empty state. */
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { ProviderView } from "../../electron/host/rpc/methods/providers";
import { HermesRpcError } from "../../renderer/src/api/rpc-error";
import { deferred, fakeClient } from "./fake-client";
import { renderApp } from "./render-app";
import { settingsWith } from "./fake-client.js";

afterEach(cleanup);

const local: ProviderView = {
  id: "local",
  name: "Local llama.cpp",
  base_url: "http://127.0.0.1:8080/v1",
  key_env: null,
  hasKey: true,
  keyHint: "abcd",
};
const router: ProviderView = {
  id: "openrouter",
  name: "OpenRouter",
  base_url: "https://openrouter.ai/api/v1",
  key_env: null,
  hasKey: false,
  keyHint: null,
};

const baseHandlers = {
  "host.info": () => ({ version: "1.2.3", mode: "web" as const, home: "/tmp/h", notices: [] }),
  "settings.get": () => settingsWith({ model: { provider: "local", model: "qwen3-8b" } }),
};

async function openProviders() {
  fireEvent.click(
    within(screen.getByRole("navigation", { name: "Main" })).getByRole("button", { name: "Settings" }),
  );
  fireEvent.click(
    within(screen.getByRole("navigation", { name: "Settings" })).getByRole("button", { name: "Providers" }),
  );
  await screen.findByRole("heading", { name: "Providers" });
}

const row = (id: string): HTMLElement => {
  const element = document.querySelector<HTMLElement>(`[data-provider="${id}"]`);
  if (!element) throw new Error(`no row for ${id}`);
  return element;
};

describe("Settings → Providers", () => {
  it("shows each provider's name, base URL and key state", async () => {
    renderApp(fakeClient({ ...baseHandlers, "providers.list": () => ({ providers: [local, router] }) }));
    await openProviders();
    await screen.findByText("Local llama.cpp");
    expect(row("local").textContent).toContain("http://127.0.0.1:8080/v1");
    expect(row("local").textContent).toContain("Key set ••••abcd");
    expect(row("openrouter").textContent).toContain("No key");
    expect(row("openrouter").textContent).not.toContain("Key set");
    for (const name of ["Test connection", "Edit", "Remove"]) {
      expect(within(row("local")).getByRole("button", { name })).toBeTruthy();
    }
    expect(screen.getAllByRole("button", { name: "Add provider" })).toHaveLength(1);
  });

  it("shows Testing… while the models load, then the list and its count", async () => {
    const models = deferred<{ models: string[] }>();
    const client = fakeClient({
      ...baseHandlers,
      "providers.list": () => ({ providers: [local] }),
      "providers.models": () => models.promise,
    });
    renderApp(client);
    await openProviders();
    fireEvent.click(
      await within(await waitFor(() => row("local"))).findByRole("button", { name: "Test connection" }),
    );

    const testing = within(row("local")).getByRole("button", { name: "Testing…" }) as HTMLButtonElement;
    expect(testing.disabled).toBe(true);
    expect(client.callsOf("providers.models")).toEqual([{ id: "local" }]);

    models.resolve({ models: ["qwen3-8b", "llama-3.1-8b"] });
    const list = await within(row("local")).findByRole("list", { name: "Models of Local llama.cpp" });
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["qwen3-8b", "llama-3.1-8b"]);
    expect(row("local").textContent).toContain("2 models");
    expect(within(row("local")).queryByRole("alert")).toBeNull();
  });

  it("puts a failed test's error in plain words in an alert inside the row", async () => {
    renderApp(
      fakeClient({
        ...baseHandlers,
        "providers.list": () => ({ providers: [local, router] }),
        "providers.models": () => {
          throw new HermesRpcError(
            "provider_error",
            "Local llama.cpp is not reachable at 127.0.0.1:8080 (connection refused).",
          );
        },
      }),
    );
    await openProviders();
    fireEvent.click(
      await within(await waitFor(() => row("local"))).findByRole("button", { name: "Test connection" }),
    );
    const alert = await within(row("local")).findByRole("alert");
    expect(alert.textContent).toContain(
      "Local llama.cpp is not reachable at 127.0.0.1:8080 (connection refused).",
    );
    expect(within(row("openrouter")).queryByRole("alert")).toBeNull();
    expect(within(row("local")).queryByRole("list")).toBeNull();
  });

  it("asks before removing, then removes the row", async () => {
    const client = fakeClient({
      ...baseHandlers,
      "providers.list": () => ({ providers: [local, router] }),
      "providers.remove": () => ({}),
    });
    renderApp(client);
    await openProviders();
    fireEvent.click(
      await within(await waitFor(() => row("openrouter"))).findByRole("button", { name: "Remove" }),
    );

    const dialog = await screen.findByRole("dialog", { name: "Remove OpenRouter?" });
    expect(client.callsOf("providers.remove")).toEqual([]);
    fireEvent.click(within(dialog).getByRole("button", { name: "Remove" }));

    await waitFor(() => expect(document.querySelector('[data-provider="openrouter"]')).toBeNull());
    expect(client.callsOf("providers.remove")).toEqual([{ id: "openrouter" }]);
    // The dialog closes as the remove settles, which may be a render after the row went.
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(row("local")).toBeTruthy();
  });

  it("shows the empty state with a single Add provider button", async () => {
    renderApp(fakeClient({ ...baseHandlers, "providers.list": () => ({ providers: [] }) }));
    await openProviders();
    await screen.findByText("No providers yet");
    expect(screen.getAllByRole("button", { name: "Add provider" })).toHaveLength(1);
    fireEvent.click(screen.getByRole("button", { name: "Add provider" }));
    expect(await screen.findByRole("dialog", { name: "Add provider" })).toBeTruthy();
  });

  it("says why the list could not load and retries on request", async () => {
    let fail = true;
    renderApp(
      fakeClient({
        ...baseHandlers,
        "providers.list": () => {
          if (fail) throw new HermesRpcError("connection_lost", "Lost the connection to Hermes Desktop.");
          return { providers: [local] };
        },
      }),
    );
    await openProviders();
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Lost the connection to Hermes Desktop.");
    fail = false;
    fireEvent.click(within(alert).getByRole("button", { name: "Retry" }));
    await waitFor(() => expect(row("local")).toBeTruthy());
  });

  it("Test connection offers the action that fixes what failed: the key, the base URL, or a retry", async () => {
    const failures: Record<string, HermesRpcError> = {
      openrouter: new HermesRpcError("provider_error", "No API key is stored for OpenRouter.", {
        key: "apiKey",
      }),
      local: new HermesRpcError("provider_error", "Could not reach Local llama.cpp.", { key: "base_url" }),
    };
    let slow = false;
    const client = fakeClient({
      ...baseHandlers,
      "providers.list": () => ({ providers: [local, router, { ...local, id: "keyed", name: "Keyed" }] }),
      "providers.models": ({ id }) => {
        if (id === "keyed") {
          if (slow) return { models: ["k/1"] };
          slow = true;
          throw new HermesRpcError(
            "provider_error",
            "Keyed answered 503: the provider is overloaded or down.",
          );
        }
        throw failures[id]!;
      },
    });
    renderApp(client);
    await openProviders();
    const test = async (id: string) => {
      fireEvent.click(
        await within(await waitFor(() => row(id))).findByRole("button", { name: "Test connection" }),
      );
      return within(row(id)).findByRole("alert");
    };
    expect(within(await test("openrouter")).getByRole("button", { name: "Add a key" })).toBeTruthy();
    const unreachable = await test("local");
    expect(within(unreachable).queryByRole("button", { name: "Add a key" })).toBeNull();
    fireEvent.click(within(unreachable).getByRole("button", { name: "Edit base URL" }));
    expect(await screen.findByRole("dialog", { name: /Edit/ })).toBeTruthy();
    fireEvent.keyDown(screen.getByRole("dialog"), { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    const down = await test("keyed");
    fireEvent.click(within(down).getByRole("button", { name: "Try again" }));
    expect(await within(row("keyed")).findByText(/Connected · 1 model/)).toBeTruthy();
  });

  it("warns before removing a provider that auxiliary tasks are pinned to", async () => {
    const pinned = (task: string, label: string) => ({
      task,
      provider: "openrouter",
      model: "m",
      base_url: "",
      timeout: 30,
      label,
      hint: "",
      inherit_from: null,
      effective: { provider: "openrouter", model: "m", base_url: "" },
      stale: true,
      source: "pin" as const,
      chain: [task],
      broken: null,
      follow_blocked: null,
    });
    renderApp(
      fakeClient({
        ...baseHandlers,
        "providers.list": () => ({ providers: [local, router] }),
        "model.auxiliary.list": () => ({
          tasks: [pinned("vision", "Vision"), pinned("compression", "Compression")],
        }),
      }),
    );
    await openProviders();
    fireEvent.click(
      await within(await waitFor(() => row("openrouter"))).findByRole("button", { name: "Remove" }),
    );
    const dialog = await screen.findByRole("dialog", { name: "Remove OpenRouter?" });
    expect(within(dialog).getByRole("alert").textContent).toBe(
      "2 auxiliary tasks Vision, Compression are pinned to OpenRouter. Removing it breaks those pins: reset them in Settings → Models → Auxiliary, or pin another provider.",
    );
    fireEvent.keyDown(dialog, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    fireEvent.click(within(row("local")).getByRole("button", { name: "Remove" }));
    const other = await screen.findByRole("dialog", { name: "Remove Local llama.cpp?" });
    expect(within(other).queryByRole("alert")).toBeNull();
  });
});
