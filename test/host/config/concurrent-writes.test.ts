/* eslint-disable @typescript-eslint/no-explicit-any -- the YAML documents are read as plain JSON here. */
/**
 * Another program (an editor, a second app on the same data home) writes config.yaml while a
 * setting is being saved: the save is a compare-and-swap, so neither write is lost silently.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { ManualClock } from "../../fixtures/manual-clock.js";
import { SettingsStore } from "../../../electron/host/config/settings-store.js";
import { makeTempHome } from "./config-test-helpers.js";

const stores: SettingsStore[] = [];
afterEach(() => {
  while (stores.length) stores.pop()?.close();
});

function open(home: string): SettingsStore {
  const store = new SettingsStore({ home, clock: new ManualClock() });
  stores.push(store);
  return store;
}

/** What an editor does: read the file, change one key, write a temp file and rename it over. */
function editorSets(file: string, edit: (doc: Record<string, any>) => void): void {
  const doc = (parse(fs.readFileSync(file, "utf8")) ?? {}) as Record<string, any>;
  edit(doc);
  fs.writeFileSync(`${file}.editor-tmp`, stringify(doc));
  fs.renameSync(`${file}.editor-tmp`, file);
}

describe("config.yaml written by two programs at once", () => {
  it("keeps both when they change different keys, with no conflict shown", () => {
    const store = open(makeTempHome());
    store.set("memory.nudge_interval", 10);
    let raced = false;
    store.update((doc) => {
      // The other program writes after this save read the file and before it writes.
      if (!raced) {
        raced = true;
        editorSets(store.path, (other) => (other.memory.nudge_interval = 25));
      }
      doc.display = { ...(doc.display as object), busy_input_mode: "steer" };
    });
    const onDisk = parse(fs.readFileSync(store.path, "utf8"));
    expect(onDisk.memory.nudge_interval).toBe(25);
    expect(onDisk.display.busy_input_mode).toBe("steer");
    expect(store.notices().filter((n) => n.kind === "config_conflict")).toEqual([]);
  });

  it("shows a conflict naming the key and both values when they change the same key", () => {
    const store = open(makeTempHome());
    store.set("display.busy_input_mode", "queue");
    let raced = false;
    store.update((doc) => {
      if (!raced) {
        raced = true;
        editorSets(store.path, (other) => (other.display.busy_input_mode = "interrupt"));
      }
      (doc.display as Record<string, unknown>).busy_input_mode = "steer";
    });
    expect(parse(fs.readFileSync(store.path, "utf8")).display.busy_input_mode).toBe("steer");
    const [conflict] = store.notices().filter((n) => n.kind === "config_conflict");
    expect(conflict?.message).toContain(store.path);
    expect(conflict?.message).toMatch(/display\.busy_input_mode: "interrupt" there, "steer" saved/);
    expect(conflict?.message).toMatch(/set it again if the other value was the one you wanted/);
    // The next clean save clears it.
    store.set("memory.nudge_interval", 3);
    expect(store.notices().filter((n) => n.kind === "config_conflict")).toEqual([]);
  });

  it("two stores on one home (two app instances) each keep the other's saves", () => {
    const home = makeTempHome();
    const first = open(home);
    const second = open(home);
    first.set("memory.nudge_interval", 7);
    second.set("display.busy_input_mode", "interrupt");
    first.set("system_prompt", "Be brief.");
    const onDisk = parse(fs.readFileSync(path.join(home, "config.yaml"), "utf8"));
    expect(onDisk).toMatchObject({
      memory: { nudge_interval: 7 },
      display: { busy_input_mode: "interrupt" },
      system_prompt: "Be brief.",
    });
  });
});
