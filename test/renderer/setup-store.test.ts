/** The first-minute set-up store: scanning, one-click add (main model set only when none), and the Hermes import's calls. */
import { describe, expect, it } from "vitest";
import type { DiscoveredServer } from "../../electron/host/rpc/methods/provider-discovery";
import type { ImportPreview } from "../../electron/host/rpc/methods/settings-import";
import { HermesRpcError } from "../../renderer/src/api/rpc-error";
import { createMainModelStore } from "../../renderer/src/stores/settings/main-model-store";
import { createProvidersStore } from "../../renderer/src/stores/settings/providers-store";
import { createSetupStore } from "../../renderer/src/stores/settings/setup-store";
import { fakeClient, settingsWith, type Handlers } from "./fake-client";

const ollama: DiscoveredServer = {
  kind: "ollama",
  base_url: "http://127.0.0.1:11434/v1",
  status: "found",
  models: [{ id: "llama3.2:3b", context_window: 131072, vision: false }],
  providerId: "ollama",
  added: false,
  name: "Ollama",
};

function setUp(handlers: Handlers, mainModel = { provider: "", model: "" }) {
  const client = fakeClient({
    "settings.get": () => settingsWith({ model: mainModel }),
    "providers.save": (p) => ({
      provider: {
        id: p.id!,
        name: p.name,
        base_url: p.base_url,
        key_env: null,
        hasKey: false,
        keyHint: null,
      },
    }),
    "model.set": (p) => ({
      ok: true,
      scope: "main",
      provider: p.provider ?? "",
      model: p.model ?? "",
      stale_aux: [],
    }),
    ...handlers,
  });
  const providers = createProvidersStore(client);
  const main = createMainModelStore(client);
  let refreshes = 0;
  const setup = createSetupStore(client, {
    providers,
    mainModel: main,
    refresh: async () => void refreshes++,
  });
  return { client, setup, main, refreshes: () => refreshes };
}

describe("setup store", () => {
  it("adds a found server without a key and makes its first model the main model when none is set", async () => {
    const { client, setup, main } = setUp({ "providers.discover": () => ({ servers: [ollama] }) });
    await main.getState().loadCurrent();
    await setup.getState().scanLocalServers();
    await setup.getState().addLocalServer(ollama);
    expect(client.callsOf("providers.save")).toEqual([
      { id: "ollama", create: true, name: "Ollama", base_url: "http://127.0.0.1:11434/v1" },
    ]);
    expect(client.callsOf("model.set")).toEqual([
      { scope: "main", provider: "ollama", model: "llama3.2:3b" },
    ]);
    const scan = setup.getState().scan;
    expect(scan.kind === "done" && scan.servers[0]?.added).toBe(true);
  });

  it("leaves a main model already chosen alone", async () => {
    const { client, setup, main } = setUp({}, { provider: "openrouter", model: "x/y" });
    await main.getState().loadCurrent();
    await setup.getState().addLocalServer(ollama);
    expect(client.callsOf("providers.save")).toHaveLength(1);
    expect(client.callsOf("model.set")).toEqual([]);
  });

  it("says why an add failed, and a scan the person asked for that failed; a quiet scan says nothing", async () => {
    const { setup } = setUp({
      "providers.save": () => {
        throw new HermesRpcError("invalid_params", 'A provider with the ID "ollama" already exists.');
      },
      "providers.discover": () => {
        throw new HermesRpcError("internal_error", "boom");
      },
    });
    await setup.getState().addLocalServer(ollama);
    expect(setup.getState().adds["ollama"]).toEqual({
      kind: "failed",
      message: 'A provider with the ID "ollama" already exists.',
    });
    await setup.getState().scanLocalServers({ quiet: true });
    expect(setup.getState().scan).toEqual({ kind: "idle" });
    await setup.getState().scanLocalServers();
    expect(setup.getState().scan).toMatchObject({ kind: "failed", message: "boom" });
  });

  it("imports with the chosen keys only, then refreshes; restores and refreshes again", async () => {
    const preview: ImportPreview = {
      source: "/home/me/.hermes/config.yaml",
      changes: [{ key: "model.provider", from: null, to: "openrouter" }],
      keys: [{ env: "OPENROUTER_API_KEY", provider: "openrouter", keyHint: "A1b2" }],
      pendingConsent: [],
      notImported: [],
    };
    const { client, setup, refreshes } = setUp({
      "settings.import.detect": () => ({ source: preview.source, canRestore: false }),
      "settings.import.preview": () => preview,
      "settings.import.apply": () => ({ ok: true, backup: "/data/config.yaml.before-import" }),
      "settings.import.undo": () => ({ ok: true }),
    });
    await setup.getState().detectImport();
    await setup.getState().loadPreview();
    expect(setup.getState().preview).toEqual({ kind: "ready", preview });
    await setup.getState().applyImport(["OPENROUTER_API_KEY"]);
    expect(client.callsOf("settings.import.apply")).toEqual([{ keys: ["OPENROUTER_API_KEY"] }]);
    expect(setup.getState().importOutcome).toEqual({
      kind: "imported",
      backup: "/data/config.yaml.before-import",
    });
    expect(setup.getState().importSource).toEqual({ source: preview.source, canRestore: true });
    expect(refreshes()).toBe(1);
    await setup.getState().restoreSettings();
    expect(setup.getState().importOutcome).toEqual({ kind: "restored" });
    expect(setup.getState().importSource?.canRestore).toBe(false);
    expect(refreshes()).toBe(2);
  });

  it("shows the host's words when the Hermes files can't be imported", async () => {
    const { setup } = setUp({
      "settings.import.preview": () => {
        throw new HermesRpcError(
          "invalid_params",
          "/home/me/.hermes/config.yaml is 10.0 MB; the Hermes config must be at most 1 MB.",
        );
      },
    });
    await setup.getState().loadPreview();
    expect(setup.getState().preview).toEqual({
      kind: "failed",
      message: "/home/me/.hermes/config.yaml is 10.0 MB; the Hermes config must be at most 1 MB.",
    });
  });
});
