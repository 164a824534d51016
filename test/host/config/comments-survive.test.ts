/**
 * config.yaml is a file a person reads and edits (issue 13): every settings write keeps their
 * comments, key order and blank lines — an empty or comments-only file included.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SettingsStore } from "../../../electron/host/config/settings-store.js";
import { filesIn, makeTempHome } from "./config-test-helpers.js";

const commented = `# My Hermes settings — edited by hand.
# Keep the local model as the fallback.

model: # the main model
  provider: local
  model: qwen3-8b   # small and fast

providers:
  # llama.cpp on this machine
  local:
    name: Local llama.cpp
    base_url: http://127.0.0.1:8080/v1

# How the chat behaves
display:
  busy_input_mode: queue # queue | steer | interrupt

security: {redact_secrets: true}
# trailing note
`;

/** Every write path a person's settings go through, one after the other. */
function writeEverything(store: SettingsStore): void {
  store.set("display.busy_input_mode", "steer");
  store.set("memory.note", "The user's name is Ada.");
  store.update((doc) => {
    doc.providers = {
      ...doc.providers,
      openrouter: {
        name: "OpenRouter",
        base_url: "https://openrouter.ai/api/v1",
        key_env: "OPENROUTER_API_KEY",
      },
    };
  });
  store.set("model.model", "qwen3-14b");
  store.delete("memory.note");
}

function commentLines(text: string): string[] {
  return text
    .split("\n")
    .map((line) => (line.includes("#") ? line.slice(line.indexOf("#")).trim() : ""))
    .filter(Boolean);
}

describe("settings writes keep what a person wrote", () => {
  it("keeps every comment, the key order and the blank lines of a commented file", () => {
    const home = makeTempHome();
    const file = path.join(home, "config.yaml");
    fs.writeFileSync(file, commented);
    const store = new SettingsStore({ home });
    writeEverything(store);
    store.close();
    const after = fs.readFileSync(file, "utf8");
    expect(commentLines(after)).toEqual(commentLines(commented));
    const topKeys = after
      .split("\n")
      .filter((l) => /^[a-z_]+:/.test(l))
      .map((l) => l.split(":")[0]);
    expect(topKeys.slice(0, 4)).toEqual(["model", "providers", "display", "security"]);
    // The blank lines between blocks are still there.
    expect(after).toContain("# Keep the local model as the fallback.\n\nmodel:");
    expect(after).toContain("base_url: http://127.0.0.1:8080/v1\n");
    expect(after).toMatch(
      /\n\n# How the chat behaves\ndisplay:\n {2}busy_input_mode: steer # queue \| steer \| interrupt\n/,
    );
    expect(after).toContain("model: qwen3-14b # small and fast");
    expect(filesIn(home, "config.yaml.")).toEqual([]);
  });

  it.each([
    ["an empty file", ""],
    ["a comments-only file", "# Hermes settings\n# (nothing set yet)\n"],
    ["blank lines and a comment", "\n\n# later\n\n"],
    ["a lone document marker", "---\n# started here\n"],
  ])("keeps %s's comments on the first and every later write", (_label, text) => {
    const home = makeTempHome();
    const file = path.join(home, "config.yaml");
    fs.writeFileSync(file, text);
    const store = new SettingsStore({ home });
    writeEverything(store);
    store.close();
    const after = fs.readFileSync(file, "utf8");
    expect(commentLines(after)).toEqual(commentLines(text));
    expect(after).toContain("busy_input_mode: steer");
    expect(after).toContain("openrouter:");
    const reread = new SettingsStore({ home });
    expect(reread.get().display.busy_input_mode).toBe("steer");
    expect(reread.notices()).toEqual([]);
    reread.close();
  });
});
