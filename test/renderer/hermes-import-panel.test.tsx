// @vitest-environment happy-dom
/** Settings → General → Import from Hermes: the preview's parts, a key left unticked stays behind, and Restore. */
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { ImportPreview } from "../../electron/host/rpc/methods/settings-import";
import { fakeClient, settingsWith } from "./fake-client";
import { renderApp } from "./render-app";

afterEach(cleanup);

const preview: ImportPreview = {
  source: "/home/me/.hermes/config.yaml",
  changes: [
    { key: "model.provider", from: null, to: "openrouter" },
    { key: "display.busy_input_mode", from: "queue", to: "steer" },
  ],
  keys: [
    { env: "OPENROUTER_API_KEY", provider: "openrouter", keyHint: "A1b2" },
    { env: "DEEPSEEK_API_KEY", provider: "deepseek", keyHint: "C3d4" },
  ],
  pendingConsent: [{ plugin: "chart-writer", capabilities: ["llm.side_question"] }],
  notImported: [{ key: "terminal", reason: "Hermes Desktop has no such setting." }],
};

describe("Import from Hermes", () => {
  it("previews, imports only the keys left ticked, and offers Restore previous settings afterwards", async () => {
    const client = fakeClient({
      "host.info": () => ({ version: "1.2.3", mode: "web", home: "/tmp/h", notices: [] }),
      "settings.get": () => settingsWith({}),
      "providers.list": () => ({ providers: [] }),
      "settings.import.detect": () => ({ source: preview.source, canRestore: false }),
      "settings.import.preview": () => preview,
      "settings.import.apply": () => ({ ok: true, backup: "/tmp/h/config.yaml.before-import" }),
      "settings.import.undo": () => ({ ok: true }),
    });
    renderApp(client);
    fireEvent.click(
      within(await screen.findByRole("navigation", { name: "Main" })).getByRole("button", {
        name: "Settings",
      }),
    );
    fireEvent.click(
      within(screen.getByRole("navigation", { name: "Settings" })).getByRole("button", { name: "General" }),
    );
    fireEvent.click(await screen.findByRole("button", { name: "Import from Hermes" }));

    const changes = await screen.findByRole("list", { name: "Changes" });
    expect(changes.textContent).toContain("model.provider");
    expect(changes.textContent).toContain("queue → steer");
    expect(screen.getByRole("list", { name: "Pending consent" }).textContent).toContain(
      "chart-writer: llm.side_question",
    );
    expect(screen.getByRole("list", { name: "Not imported" }).textContent).toContain(
      "Hermes Desktop has no such setting.",
    );
    const openRouter = screen.getByRole("checkbox", { name: /OPENROUTER_API_KEY for openrouter ••••A1b2/ });
    const deepSeek = screen.getByRole("checkbox", { name: /DEEPSEEK_API_KEY for deepseek ••••C3d4/ });
    expect((openRouter as HTMLInputElement).checked).toBe(true);
    fireEvent.click(deepSeek);
    fireEvent.click(screen.getByRole("button", { name: "Import" }));

    await waitFor(() =>
      expect(client.callsOf("settings.import.apply")).toEqual([{ keys: ["OPENROUTER_API_KEY"] }]),
    );
    expect((await screen.findByRole("status")).textContent).toContain("/tmp/h/config.yaml.before-import");
    fireEvent.click(screen.getByRole("button", { name: "Restore previous settings" }));
    await waitFor(() => expect(client.callsOf("settings.import.undo")).toHaveLength(1));
    expect((await screen.findByText("Your previous settings are back.")).textContent).toBeTruthy();
  });
});
