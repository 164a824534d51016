// @vitest-environment happy-dom
/**
 * Settings → Plugins: rows (source, status, failure reason, commands, capabilities), the toggle
 * (optimistic, rolled back on error), Rescan, the plugins folder per mode, and the page's states.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { PluginCommandView, PluginView } from "../../electron/host/rpc/methods/plugins";
import { HermesRpcError } from "../../renderer/src/api/rpc-error";
import { PluginsPage } from "../../renderer/src/settings/plugins/plugins-page";
import { pluginsFolderPath } from "../../renderer/src/settings/plugins/plugins-folder";
import { connectStoresToHost, createAppStores } from "../../renderer/src/stores/app-stores";
import { StoresProvider } from "../../renderer/src/stores/stores-context";
import { deferred, fakeClient, type FakeClient, type Handlers } from "./fake-client";
import { renderApp } from "./render-app";
import { settingsWith } from "./fake-client.js";

afterEach(cleanup);

const plugin = (overrides: Partial<PluginView> & { id: string }): PluginView => ({
  name: overrides.id,
  version: "1.0.0",
  description: `The ${overrides.id} plugin.`,
  enabled: false,
  status: "disabled",
  capabilities: [],
  pendingCapabilities: [],
  pages: [],
  source: "bundled",
  warnings: [],
  ...overrides,
});

const tldr = plugin({
  id: "tldr",
  description: "/tldr <text>: summarise a long paste in one tight paragraph.",
});
const tldrLoaded = plugin({ ...tldr, enabled: true, status: "loaded" });
const broken = plugin({
  id: "broken",
  version: "0.1.0",
  source: "user",
  enabled: true,
  status: "failed",
  error: "register(ctx) threw: the API key file is missing",
});
const charts = plugin({
  id: "chart-writer",
  source: "user",
  capabilities: [
    { id: "llm.side_question", granted: true },
    { id: "llm.session_fork", granted: false },
    { id: "llm.model_override", granted: false },
  ],
  pendingCapabilities: ["llm.session_fork"],
});
const tldrCommand: PluginCommandView = {
  name: "tldr",
  description: "Summarise the supplied text in one paragraph.",
  argsHint: "<text>",
  pluginId: "tldr",
};

function handlers(mode: "web" | "desktop", overrides: Handlers = {}): Handlers {
  return {
    "host.info": () => ({ version: "1.2.3", mode, home: "/tmp/h", notices: [] }),
    "settings.get": () => settingsWith({}),
    "providers.list": () => ({ providers: [] }),
    "plugins.list": () => ({ plugins: [tldr] }),
    "plugins.commands": () => ({ commands: [] }),
    ...overrides,
  };
}

/** The page on the real stores, wired to the client the way main.tsx wires the app. */
function renderPage(client: FakeClient) {
  const stores = createAppStores(client);
  const disconnect = connectStoresToHost(client, stores);
  render(
    <StoresProvider stores={stores}>
      <PluginsPage />
    </StoresProvider>,
  );
  return { stores, disconnect };
}

const row = (id: string): HTMLElement => {
  const element = document.querySelector<HTMLElement>(`[data-plugin="${id}"]`);
  if (!element) throw new Error(`no row for ${id}`);
  return element;
};
const findRow = (id: string) => waitFor(() => row(id));
const toggleOf = (id: string, name = id) => within(row(id)).getByRole("switch", { name: `Enable ${name}` });

describe("Settings → Plugins rows", () => {
  it("is reached from the Settings navigation", async () => {
    renderApp(fakeClient(handlers("web")));
    fireEvent.click(
      within(screen.getByRole("navigation", { name: "Main" })).getByRole("button", { name: "Settings" }),
    );
    const settingsNav = await screen.findByRole("navigation", { name: "Settings" });
    fireEvent.click(within(settingsNav).getByRole("button", { name: "Plugins" }));
    expect(await screen.findByRole("heading", { name: "Plugins", level: 1 })).toBeTruthy();
    expect(within(settingsNav).getByRole("button", { name: "Plugins" }).getAttribute("aria-current")).toBe(
      "page",
    );
    await findRow("tldr");
  });

  it("shows name, version, description, source and status of each plugin", async () => {
    renderPage(fakeClient(handlers("web", { "plugins.list": () => ({ plugins: [tldrLoaded, broken] }) })));
    expect(await screen.findByRole("heading", { name: "Plugins", level: 1 })).toBeTruthy();
    await findRow("tldr");
    const text = row("tldr").textContent ?? "";
    for (const part of ["tldr", "v1.0.0", "summarise a long paste", "Bundled", "Loaded"])
      expect(text).toContain(part);
    expect(toggleOf("tldr").getAttribute("aria-checked")).toBe("true");
    expect(row("broken").textContent).toContain("User");
    expect(row("broken").textContent).toContain("Failed");
  });

  it("says why a plugin failed, in an alert inside its row, and leaves the others alone", async () => {
    renderPage(fakeClient(handlers("web", { "plugins.list": () => ({ plugins: [tldrLoaded, broken] }) })));
    const alert = within(await findRow("broken")).getByRole("alert");
    expect(alert.textContent).toContain("register(ctx) threw: the API key file is missing");
    expect(within(row("tldr")).queryByRole("alert")).toBeNull();
  });

  it("lists each idle task with its schedule and last run, or that it has not run or is running", async () => {
    const lastRun = "2026-11-29T13:00:00.000Z";
    const chores = plugin({
      id: "chores",
      enabled: true,
      status: "loaded",
      idleTasks: [
        {
          name: "dry",
          intervalHours: 12,
          minIdleHours: 2,
          running: false,
          lastRun,
          lastStatus: "error",
          lastError: "no sun today",
          runsToday: 1,
        },
        {
          name: "fold",
          intervalHours: 0.5,
          minIdleHours: 1,
          running: true,
          lastRun: null,
          lastStatus: null,
          lastError: null,
          runsToday: 0,
        },
        {
          name: "wash",
          intervalHours: 6,
          minIdleHours: 1,
          running: false,
          lastRun,
          lastStatus: "ok",
          lastError: null,
          runsToday: 3,
        },
        {
          name: "tick",
          intervalHours: 1 / 3600,
          minIdleHours: 0.5,
          running: false,
          lastRun,
          lastStatus: "ok",
          lastError: null,
          runsToday: 1,
        },
        {
          name: "iron",
          intervalHours: 24,
          minIdleHours: 2,
          running: false,
          lastRun: null,
          lastStatus: null,
          lastError: null,
          runsToday: 0,
        },
      ],
    });
    const off = plugin({
      id: "resting",
      idleTasks: [
        {
          name: "nap",
          intervalHours: null,
          minIdleHours: null,
          running: false,
          lastRun,
          lastStatus: "timeout",
          lastError: "The idle task did not finish within 600 s.",
          runsToday: 0,
        },
      ],
    });
    renderPage(
      fakeClient(handlers("web", { "plugins.list": () => ({ plugins: [chores, off, tldrLoaded] }) })),
    );
    const list = await within(await findRow("chores")).findByRole("list", { name: "Idle tasks of chores" });
    const task = (name: string) =>
      list.querySelector<HTMLElement>(`[data-idle-task="${name}"]`)!.textContent ?? "";
    expect(task("wash")).toContain("Every 6 h, after 1 h idle");
    expect(task("wash")).toContain("OK");
    expect(list.querySelector('[data-idle-task="wash"] time')?.getAttribute("dateTime")).toBe(lastRun);
    expect(task("dry")).toContain("Failed");
    expect(task("dry")).toContain("no sun today");
    expect(task("fold")).toContain("Every 30 min, after 1 h idle");
    expect(task("fold")).toContain("Running now");
    expect(task("iron")).toContain("Not run yet");
    // Runs today (docs/contract.md §9.4), and a seconds interval in seconds.
    expect(task("wash")).toContain("3 runs today");
    expect(task("dry")).toContain("1 run today");
    expect(task("iron")).toContain("0 runs today");
    expect(task("tick")).toContain("Every 1 s, after 30 min idle");
    expect(task("tick")).toContain("1 run today");
    const resting =
      within(row("resting")).getByRole("list", { name: "Idle tasks of resting" }).textContent ?? "";
    expect(resting).toContain("Not scheduled while the plugin is off");
    expect(resting).toContain("Timed out");
    // A plugin without idle tasks shows no such section.
    expect(within(row("tldr")).queryByRole("list", { name: "Idle tasks of tldr" })).toBeNull();
  });

  it("lists a loaded plugin's slash commands with their argsHint", async () => {
    renderPage(
      fakeClient(
        handlers("web", {
          "plugins.list": () => ({ plugins: [tldrLoaded] }),
          "plugins.commands": () => ({ commands: [tldrCommand] }),
        }),
      ),
    );
    const commands = await within(await findRow("tldr")).findByRole("list", { name: "Commands of tldr" });
    expect(commands.textContent).toContain("/tldr <text>");
    expect(commands.textContent).toContain("Summarise the supplied text in one paragraph.");
  });

  it("lists declared capabilities with their granted state", async () => {
    renderPage(fakeClient(handlers("web", { "plugins.list": () => ({ plugins: [charts, tldr] }) })));
    const list = within(await findRow("chart-writer")).getByRole("list", {
      name: "Capabilities of chart-writer",
    });
    const state = (id: string) => list.querySelector(`[data-capability="${id}"]`)?.textContent ?? "";
    expect(state("llm.side_question")).toContain("Granted");
    expect(state("llm.side_question")).toContain("Ask your agent a short question after each turn.");
    expect(state("llm.session_fork")).toContain("Pending");
    expect(state("llm.model_override")).toContain("Not granted");
    expect(row("tldr").textContent).toContain("CapabilitiesNone requested");
  });
});

describe("Settings → Plugins toggle", () => {
  it("flips at once, asks the host, then shows the host's answer and the new commands", async () => {
    const answer = deferred<{ plugin: PluginView }>();
    let loaded = false;
    const client = fakeClient(
      handlers("web", {
        "plugins.list": () => ({ plugins: [loaded ? tldrLoaded : tldr] }),
        "plugins.commands": () => ({ commands: loaded ? [tldrCommand] : [] }),
        "plugins.setEnabled": () => answer.promise,
      }),
    );
    renderPage(client);
    await findRow("tldr");
    expect(toggleOf("tldr").getAttribute("aria-checked")).toBe("false");
    expect(row("tldr").textContent).toContain("Disabled");

    fireEvent.click(toggleOf("tldr"));
    expect(toggleOf("tldr").getAttribute("aria-checked")).toBe("true");
    expect(row("tldr").textContent).toContain("Loading");
    expect(client.callsOf("plugins.setEnabled")).toEqual([{ id: "tldr", enabled: true }]);

    loaded = true;
    await act(async () => answer.resolve({ plugin: tldrLoaded }));
    await waitFor(() => expect(row("tldr").textContent).toContain("Loaded"));
    expect(
      await within(row("tldr")).findByText("Summarise the supplied text in one paragraph."),
    ).toBeTruthy();
    expect(toggleOf("tldr").getAttribute("aria-busy")).toBeNull();
  });

  it("rolls the switch back and says why when the host refuses", async () => {
    // Only the first list answers: the row must come back from the rollback, not from a refresh.
    let lists = 0;
    const client = fakeClient(
      handlers("web", {
        "plugins.list": () => (++lists === 1 ? { plugins: [tldr] } : new Promise<never>(() => undefined)),
        "plugins.setEnabled": () => {
          throw new HermesRpcError(
            "invalid_params",
            "plugins.enabled could not be written: the disk is full.",
          );
        },
      }),
    );
    renderPage(client);
    await findRow("tldr");
    fireEvent.click(toggleOf("tldr"));
    const alert = await within(row("tldr")).findByRole("alert");
    expect(alert.textContent).toBe(
      "Couldn't enable tldr: plugins.enabled could not be written: the disk is full.",
    );
    expect(toggleOf("tldr").getAttribute("aria-checked")).toBe("false");
    expect(row("tldr").textContent).toContain("Disabled");
  });

  it("keeps the user's choice on screen when a refresh lands while the toggle is in flight", async () => {
    const answer = deferred<{ plugin: PluginView }>();
    const client = fakeClient(handlers("web", { "plugins.setEnabled": () => answer.promise }));
    renderPage(client);
    await findRow("tldr");
    fireEvent.click(toggleOf("tldr"));
    const listsBefore = client.callsOf("plugins.list").length;
    act(() => client.emit({ type: "plugins.changed", session_id: null, payload: {} }));
    await waitFor(() => expect(client.callsOf("plugins.list").length).toBe(listsBefore + 1));
    await act(async () => undefined);
    expect(toggleOf("tldr").getAttribute("aria-checked")).toBe("true");
    await act(async () => answer.resolve({ plugin: tldrLoaded }));
  });

  it("disables a failed plugin, which clears its failure", async () => {
    const disabled = plugin({ ...broken, enabled: false, status: "disabled" });
    delete disabled.error;
    let current = broken;
    const client = fakeClient(
      handlers("web", {
        "plugins.list": () => ({ plugins: [current] }),
        "plugins.setEnabled": () => {
          current = disabled;
          return { plugin: disabled };
        },
      }),
    );
    renderPage(client);
    await findRow("broken");
    expect(within(row("broken")).getByRole("alert")).toBeTruthy();
    fireEvent.click(toggleOf("broken"));
    await waitFor(() => expect(within(row("broken")).queryByRole("alert")).toBeNull());
    expect(client.callsOf("plugins.setEnabled")).toEqual([{ id: "broken", enabled: false }]);
    expect(row("broken").textContent).toContain("Disabled");
  });
});

describe("Settings → Plugins page", () => {
  it("shows a loading line, then an error with Retry that loads again", async () => {
    const first = deferred<{ plugins: PluginView[] }>();
    let calls = 0;
    renderPage(
      fakeClient(
        handlers("web", {
          "plugins.list": () => (++calls === 1 ? first.promise : { plugins: [tldr] }),
        }),
      ),
    );
    expect(screen.getByText("Loading plugins…")).toBeTruthy();
    await act(async () =>
      first.reject(new HermesRpcError("internal_error", "The plugin runtime did not start.")),
    );
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Couldn't load your plugins: The plugin runtime did not start.");
    fireEvent.click(within(alert).getByRole("button", { name: "Retry" }));
    await findRow("tldr");
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("explains where to put a plugin when there are none", async () => {
    renderPage(fakeClient(handlers("web", { "plugins.list": () => ({ plugins: [] }) })));
    expect(
      await screen.findByText(
        (_, element) =>
          element?.classList.contains("empty-state-body") === true &&
          element.textContent === "No plugins found. Put a plugin folder in /tmp/h/plugins and press Rescan.",
      ),
    ).toBeTruthy();
  });

  it("Rescan asks the host to look again and shows what it found", async () => {
    const scan = deferred<{ plugins: PluginView[] }>();
    let after = false;
    const client = fakeClient(
      handlers("web", {
        "plugins.list": () => ({ plugins: after ? [broken, tldr] : [tldr] }),
        "plugins.rescan": () => scan.promise,
      }),
    );
    renderPage(client);
    await findRow("tldr");
    fireEvent.click(screen.getByRole("button", { name: "Rescan" }));
    const busy = screen.getByRole("button", { name: "Rescanning…" }) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    after = true;
    await act(async () => scan.resolve({ plugins: [broken, tldr] }));
    await findRow("broken");
    expect(client.callsOf("plugins.rescan")).toHaveLength(1);
    expect(screen.getByRole("button", { name: "Rescan" })).toBeTruthy();
  });

  it("says so when Rescan fails, and keeps the list", async () => {
    renderPage(
      fakeClient(
        handlers("web", {
          "plugins.rescan": () => {
            throw new HermesRpcError("connection_lost", "Lost the connection to Hermes Desktop.");
          },
        }),
      ),
    );
    await findRow("tldr");
    fireEvent.click(screen.getByRole("button", { name: "Rescan" }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain(
      "Couldn't rescan the plugin folders: Lost the connection to Hermes Desktop.",
    );
    expect(row("tldr")).toBeTruthy();
  });

  it("in web mode shows the folder's path to copy instead of an Open button", async () => {
    renderPage(fakeClient(handlers("web")));
    const note = await screen.findByRole("group", { name: "Plugins folder" });
    expect(note.textContent).toContain("/tmp/h/plugins");
    expect(within(note).getByRole("button", { name: "Copy folder path" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Open plugins folder" })).toBeNull();
  });

  it("in desktop mode opens the folder, and shows its path when the host could not", async () => {
    let opened = true;
    const client = fakeClient(
      handlers("desktop", { "plugins.openFolder": () => ({ path: "/tmp/h/plugins", opened }) }),
    );
    renderPage(client);
    const open = await screen.findByRole("button", { name: "Open plugins folder" });
    expect(screen.queryByRole("group", { name: "Plugins folder" })).toBeNull();
    fireEvent.click(open);
    await waitFor(() => expect(client.callsOf("plugins.openFolder")).toHaveLength(1));
    await waitFor(() => expect((open as HTMLButtonElement).disabled).toBe(false));
    expect(screen.queryByRole("group", { name: "Plugins folder" })).toBeNull();

    opened = false;
    fireEvent.click(open);
    const note = await screen.findByRole("group", { name: "Plugins folder" });
    expect(note.textContent).toContain("Hermes couldn't open your file manager.");
    expect(note.textContent).toContain("/tmp/h/plugins");
  });

  it("refreshes on settings.changed and plugins.changed", async () => {
    let plugins = [tldr];
    const client = fakeClient(handlers("web", { "plugins.list": () => ({ plugins }) }));
    renderPage(client);
    await findRow("tldr");

    plugins = [tldrLoaded];
    act(() => client.emit({ type: "settings.changed", session_id: null, payload: {} }));
    await waitFor(() => expect(toggleOf("tldr").getAttribute("aria-checked")).toBe("true"));

    plugins = [tldrLoaded, broken];
    act(() => client.emit({ type: "plugins.changed", session_id: null, payload: {} }));
    await findRow("broken");
  });

  it("checks the limits in plain words, says Saved when saved, and words a host refusal without its config path", async () => {
    const running = plugin({
      ...tldrLoaded,
      runtime: {
        state: "running",
        restarts: 0,
        lastError: null,
        lastErrorAt: null,
        memoryMb: 12,
        tokensToday: 0,
        callsToday: 0,
        limits: { dailyTokens: null, heapMb: 256 },
      },
    });
    let refuse = false;
    const client = fakeClient(
      handlers("web", {
        "plugins.list": () => ({ plugins: [running] }),
        "settings.set": () => {
          if (refuse)
            throw new HermesRpcError(
              "invalid_params",
              "plugins.entries.tldr.limits.heap_mb must be a heap cap in MB (16 to 4096)",
            );
          return { ok: true };
        },
      }),
    );
    renderPage(client);
    const r = await findRow("tldr");
    const heap = within(r).getByLabelText("Heap cap (MB)");
    fireEvent.change(heap, { target: { value: "8" } });
    fireEvent.click(within(r).getByRole("button", { name: "Save limits" }));
    expect(within(r).getByRole("alert").textContent).toBe(
      "The heap cap must be a whole number of MB from 16 to 4096.",
    );
    expect(client.callsOf("settings.set")).toEqual([]);

    fireEvent.change(heap, { target: { value: "128" } });
    fireEvent.click(within(r).getByRole("button", { name: "Save limits" }));
    await waitFor(() =>
      expect(
        within(r)
          .getAllByRole("status")
          .some((s) => s.textContent === "Saved"),
      ).toBe(true),
    );
    expect(within(r).queryByRole("alert")).toBeNull();

    refuse = true;
    fireEvent.click(within(r).getByRole("button", { name: "Save limits" }));
    await waitFor(() =>
      expect(within(r).getByRole("alert").textContent).toBe(
        "The heap cap must be a whole number of MB from 16 to 4096.",
      ),
    );
    expect(within(r).getByRole("alert").textContent).not.toContain("plugins.entries");
  });

  it("moves a plugin's Today figures live on plugins.runtime, without re-reading the list", async () => {
    const running = plugin({
      ...tldrLoaded,
      runtime: {
        state: "running",
        restarts: 0,
        lastError: null,
        lastErrorAt: null,
        memoryMb: 12,
        tokensToday: 10,
        callsToday: 3,
        limits: { dailyTokens: null, heapMb: 128 },
      },
    });
    const client = fakeClient(handlers("web", { "plugins.list": () => ({ plugins: [running, broken] }) }));
    renderPage(client);
    await waitFor(() => expect(row("tldr").textContent).toContain("3 calls · 10 tokens"));
    const lists = client.callsOf("plugins.list").length;
    act(() =>
      client.emit({
        type: "plugins.runtime",
        session_id: null,
        payload: { id: "tldr", callsToday: 4, tokensToday: 1250 },
      }),
    );
    expect(row("tldr").textContent).toContain(`4 calls · ${(1250).toLocaleString()} tokens`);
    // Another plugin's counters, or one without a runtime, change nothing here.
    act(() =>
      client.emit({
        type: "plugins.runtime",
        session_id: null,
        payload: { id: "broken", callsToday: 9, tokensToday: 9 },
      }),
    );
    expect(row("broken").textContent).not.toContain("9 calls");
    expect(client.callsOf("plugins.list")).toHaveLength(lists);
  });
});

describe("pluginsFolderPath", () => {
  it("joins <home>/plugins with the home's own separator", () => {
    expect(pluginsFolderPath("/home/ada/.config/Hermes Desktop")).toBe(
      "/home/ada/.config/Hermes Desktop/plugins",
    );
    expect(pluginsFolderPath("/tmp/h/")).toBe("/tmp/h/plugins");
    expect(pluginsFolderPath("C:\\Users\\ada\\AppData\\Roaming\\Hermes")).toBe(
      "C:\\Users\\ada\\AppData\\Roaming\\Hermes\\plugins",
    );
  });
});
