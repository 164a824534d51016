// @vitest-environment happy-dom
/** Settings → Models → Auxiliary (docs/contract.md §6.5): rows, route words, editor, stale banner, broken pins. */
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { AuxiliaryTaskRow } from "../../electron/host/rpc/methods/model";
import type { ProviderView } from "../../electron/host/rpc/methods/providers";
import { HermesRpcError } from "../../renderer/src/api/rpc-error";
import { staleBannerText } from "../../renderer/src/settings/auxiliary/route-words";
import { fakeClient, type Handlers } from "./fake-client";
import { renderApp } from "./render-app";
import { settingsWith } from "./fake-client.js";

afterEach(cleanup);

const provider = (id: string, name: string): ProviderView => ({
  id,
  name,
  base_url: `https://${id}.example/v1`,
  key_env: null,
  hasKey: true,
  keyHint: "abcd",
});

const row = (task: string, label: string, over: Partial<AuxiliaryTaskRow> = {}): AuxiliaryTaskRow => ({
  task,
  provider: "auto",
  model: "",
  base_url: "",
  timeout: 30,
  label,
  hint: `${label} hint`,
  inherit_from: null,
  effective: { provider: "main", model: "main/model", base_url: "https://main.example/v1" },
  stale: false,
  source: "main",
  chain: [task],
  broken: null,
  follow_blocked: null,
  ...over,
});

const baseRows = (): AuxiliaryTaskRow[] => [
  row("vision", "Vision", {
    provider: "old",
    model: "old/vl",
    source: "pin",
    stale: true,
    effective: { provider: "old", model: "old/vl", base_url: "https://old.example/v1" },
  }),
  row("compression", "Compression", {
    provider: "old",
    model: "old/sum",
    source: "pin",
    stale: true,
    effective: { provider: "old", model: "old/sum", base_url: "https://old.example/v1" },
  }),
  row("title_generation", "Title generation"),
  row("background_review", "Background review", {
    provider: "gone",
    model: "g",
    source: "pin",
    effective: { provider: "gone", model: "g", base_url: "" },
    broken: 'The provider "gone" no longer exists: add it again in Settings → Providers, or reset this task.',
  }),
  row("classify", "Classify", {
    plugin: "classifier",
    hint: "Sorts messages. (plugin classifier)",
    inherit_from: "compression",
    source: "inherited",
    chain: ["classify", "compression"],
    timeout: 90,
    effective: { provider: "old", model: "old/sum", base_url: "https://old.example/v1" },
  }),
  row("deep", "Deep", {
    plugin: "other",
    inherit_from: "classify",
    source: "inherited",
    chain: ["deep", "classify", "compression"],
    effective: { provider: "old", model: "old/sum", base_url: "https://old.example/v1" },
  }),
];

function handlers(overrides: Handlers = {}): Handlers {
  return {
    "host.info": () => ({ version: "1", mode: "web", home: "/tmp/h", notices: [] }),
    "settings.get": () => settingsWith({ model: { provider: "main", model: "main/model" } }),
    "providers.list": () => ({ providers: [provider("main", "Main"), provider("old", "Old")] }),
    "providers.models": ({ id }) => ({
      models: id === "old" ? ["old/a", "old/b"] : ["main/model", "main/small"],
    }),
    "model.auxiliary.list": () => ({ tasks: baseRows() }),
    "model.set": () => ({ ok: true, scope: "auxiliary", tasks: [] }),
    ...overrides,
  };
}

async function openAuxiliaryTab() {
  fireEvent.click(
    within(screen.getByRole("navigation", { name: "Main" })).getByRole("button", { name: "Settings" }),
  );
  fireEvent.click(
    within(screen.getByRole("navigation", { name: "Settings" })).getByRole("button", { name: "Models" }),
  );
  const tab = within(screen.getByRole("tablist")).getByRole("tab", { name: "Auxiliary" });
  act(() => {
    fireEvent.mouseDown(tab, { button: 0 });
    fireEvent.focus(tab);
  });
  await screen.findByRole("heading", { name: "Auxiliary models" });
}

const rowOf = (task: string) => document.querySelector<HTMLElement>(`[data-task="${task}"]`)!;

describe("Settings → Models → Auxiliary", () => {
  it("lists every slot in the host's order with its route in words", async () => {
    renderApp(fakeClient(handlers()));
    await openAuxiliaryTab();
    expect(screen.getByText("Helper tasks run on the main model unless you pin one.")).toBeTruthy();
    await waitFor(() => expect(document.querySelectorAll("[data-task]")).toHaveLength(6));
    expect([...document.querySelectorAll("[data-task]")].map((e) => e.getAttribute("data-task"))).toEqual([
      "vision",
      "compression",
      "title_generation",
      "background_review",
      "classify",
      "deep",
    ]);
    const route = (task: string) => within(rowOf(task)).getByTestId("aux-route").textContent;
    expect(route("title_generation")).toBe("auto · use main model");
    // An auto row names the model it resolves to, by the provider's display name.
    expect(within(rowOf("title_generation")).getByTestId("aux-resolves").textContent).toBe(
      "Runs on Main · main/model",
    );
    expect(within(rowOf("vision")).queryByTestId("aux-resolves")).toBeNull();
    expect(route("vision")).toBe("old · old/vl");
    expect(route("classify")).toBe("inherits Compression · old · old/sum");
    expect(route("deep")).toBe("inherits Classify · old · old/sum");
    expect(within(rowOf("deep")).getByText("Through Deep → Classify → Compression")).toBeTruthy();
    expect(within(rowOf("classify")).getByText("Sorts messages. (plugin classifier)")).toBeTruthy();
    // Reset only on pinned rows; Follow <Base> only on a pinned row with a base.
    expect(within(rowOf("vision")).queryByRole("button", { name: "Reset" })).toBeTruthy();
    expect(within(rowOf("title_generation")).queryByRole("button", { name: "Reset" })).toBeNull();
    expect(within(rowOf("classify")).queryByRole("button", { name: /^Follow/ })).toBeNull();
  });

  it("disables Follow <Base> when the base's route is not allowed for the slot, and says why", async () => {
    const why =
      'Compression is a built-in task\'s route, and plugin "classifier" does not hold the llm.task_override capability (grant it in Settings → Plugins). Reset runs this task on the main model.';
    const rows = baseRows().map((r) =>
      r.task === "classify"
        ? {
            ...r,
            provider: "old",
            model: "old/a",
            source: "pin" as const,
            chain: ["classify"],
            follow_blocked: why,
          }
        : r.task === "deep"
          ? { ...r, provider: "old", model: "old/b", source: "pin" as const, chain: ["deep"] }
          : r,
    );
    const client = fakeClient(handlers({ "model.auxiliary.list": () => ({ tasks: rows }) }));
    renderApp(client);
    await openAuxiliaryTab();
    await waitFor(() => expect(rowOf("classify")).toBeTruthy());
    const follow = within(rowOf("classify")).getByRole("button", { name: "Follow Compression" });
    expect((follow as HTMLButtonElement).disabled).toBe(true);
    expect(within(rowOf("classify")).getByText(`Follow Compression is not available: ${why}`)).toBeTruthy();
    expect(document.getElementById(follow.getAttribute("aria-describedby")!)?.textContent).toContain(why);
    fireEvent.click(follow);
    expect(client.callsOf("model.set")).toEqual([]);
    // A base the slot may follow keeps the button live.
    const followClassify = within(rowOf("deep")).getByRole("button", { name: "Follow Classify" });
    expect((followClassify as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(followClassify);
    await waitFor(() =>
      expect(client.callsOf("model.set")).toEqual([
        { scope: "auxiliary", task: "deep", provider: "auto", model: "" },
      ]),
    );
  });

  it("shows the stale banner with its own Reset all to main", async () => {
    const client = fakeClient(handlers());
    renderApp(client);
    await openAuxiliaryTab();
    const banner = await screen.findByTestId("aux-stale-banner");
    expect(banner.textContent).toContain(
      "2 auxiliary task(s) (Vision, Compression) still run on Old, not your main model.",
    );
    fireEvent.click(within(banner).getByRole("button", { name: "Reset all to main" }));
    await waitFor(() =>
      expect(client.callsOf("model.set")).toEqual([
        { scope: "auxiliary", task: "__reset__", provider: "auto", model: "" },
      ]),
    );
  });

  it("says one stale task in the singular", () => {
    const rows = baseRows().map((r) => (r.task === "compression" ? { ...r, stale: false } : r));
    expect(staleBannerText(rows, (id) => (id === "old" ? "Old" : id))).toBe(
      "1 auxiliary task (Vision) still runs on Old, not your main model.",
    );
  });

  it("switching the main model shows the pins it left stale on the Main tab, with Reset all to main", async () => {
    let stale = false;
    const client = fakeClient(
      handlers({
        "model.auxiliary.list": () => ({
          tasks: baseRows().map((r) => ({ ...r, stale: r.task === "vision" && stale })),
        }),
        "model.set": (params) => {
          stale = true;
          return params.scope === "main"
            ? { ok: true, scope: "main", provider: "main", model: "main/small", stale_aux: [] }
            : { ok: true, scope: "auxiliary", tasks: [] };
        },
      }),
    );
    renderApp(client);
    fireEvent.click(
      within(screen.getByRole("navigation", { name: "Main" })).getByRole("button", { name: "Settings" }),
    );
    fireEvent.click(
      within(screen.getByRole("navigation", { name: "Settings" })).getByRole("button", { name: "Models" }),
    );
    const model = (await screen.findByRole("combobox", { name: "Model" })) as HTMLInputElement;
    expect(screen.queryByTestId("aux-stale-banner")).toBeNull();
    fireEvent.change(model, { target: { value: "main/small" } });
    fireEvent.click(screen.getByRole("button", { name: "Save" }));
    const banner = await screen.findByTestId("aux-stale-banner");
    expect(banner.textContent).toContain("1 auxiliary task (Vision) still runs on Old, not your main model.");
    expect(within(banner).getByRole("button", { name: "Reset all to main" })).toBeTruthy();
  });

  it("marks a pin whose provider is gone as broken, with what to do", async () => {
    renderApp(fakeClient(handlers()));
    await openAuxiliaryTab();
    await waitFor(() => expect(rowOf("background_review")).toBeTruthy());
    expect(within(rowOf("background_review")).getByText("Broken")).toBeTruthy();
    expect(within(rowOf("background_review")).getByRole("alert").textContent).toContain(
      "Settings → Providers",
    );
  });

  it("Change opens an inline editor; Apply pins, Escape cancels; a refusal is shown", async () => {
    let refuse = true;
    const client = fakeClient(
      handlers({
        "model.set": () => {
          if (refuse)
            throw new HermesRpcError(
              "invalid_params",
              'auxiliary.title_generation.provider "x" is not a configured provider',
            );
          return { ok: true, scope: "auxiliary", tasks: [] };
        },
      }),
    );
    renderApp(client);
    await openAuxiliaryTab();
    await waitFor(() => expect(rowOf("title_generation")).toBeTruthy());
    const r = rowOf("title_generation");
    fireEvent.click(within(r).getByRole("button", { name: "Change" }));
    const providerSelect = within(r).getByLabelText("Provider") as HTMLSelectElement;
    fireEvent.change(providerSelect, { target: { value: "old" } });
    const modelSelect = within(r).getByLabelText("Model") as HTMLSelectElement;
    await waitFor(() => expect(modelSelect.disabled).toBe(false));
    fireEvent.change(modelSelect, { target: { value: "old/b" } });
    fireEvent.click(within(r).getByRole("button", { name: "Apply" }));
    await within(r).findByText(/is not a configured provider/);
    refuse = false;
    fireEvent.click(within(r).getByRole("button", { name: "Apply" }));
    await waitFor(() => expect(within(r).queryByRole("button", { name: "Apply" })).toBeNull());
    expect(client.callsOf("model.set").at(-1)).toEqual({
      scope: "auxiliary",
      task: "title_generation",
      provider: "old",
      model: "old/b",
    });
    fireEvent.click(within(r).getByRole("button", { name: "Change" }));
    fireEvent.keyDown(within(r).getByLabelText("Provider"), { key: "Escape" });
    expect(within(r).queryByRole("button", { name: "Apply" })).toBeNull();
  });

  it("a load failure shows the error with Retry", async () => {
    let fail = true;
    renderApp(
      fakeClient(
        handlers({
          "model.auxiliary.list": () => {
            if (fail) throw new HermesRpcError("internal_error", "the host is busy");
            return { tasks: baseRows() };
          },
        }),
      ),
    );
    await openAuxiliaryTab();
    await screen.findByText(/Couldn't load the auxiliary models: the host is busy/);
    fail = false;
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    await waitFor(() => expect(document.querySelectorAll("[data-task]")).toHaveLength(6));
  });

  it("words the banner for several providers and none", () => {
    expect(staleBannerText([row("vision", "Vision")])).toBeNull();
    expect(
      staleBannerText([
        row("vision", "Vision", { stale: true, provider: "a" }),
        row("compression", "Compression", { stale: true, provider: "b" }),
      ]),
    ).toBe("2 auxiliary task(s) (Vision, Compression) still run on a, b, not your main model.");
  });
});
