/**
 * `ctx.state` (docs/contract.md §5.2): JSON values persisted per plugin in
 * `<home>/plugin-data/<id>/state.json`. Writes are atomic (temp file, then rename) so a crash
 * leaves the old or the new file, never half of one.
 */
import fs from "node:fs";
import path from "node:path";
import type { JsonValue, PluginState } from "../../../../plugins/sdk/types.js";

export const STATE_FILE = "state.json";

export function pluginDataDir(home: string, pluginId: string): string {
  return path.join(home, "plugin-data", pluginId);
}

export function assertJson(value: unknown, key: string): void {
  const refuse = (why: string): never => {
    throw new TypeError(
      `ctx.state.set("${key}") needs a JSON value (string, number, boolean, null, array, object): ${why}`,
    );
  };
  const visit = (item: unknown, depth: number): void => {
    if (depth > 100) refuse("it is nested too deeply");
    if (item === null || typeof item === "string" || typeof item === "boolean") return;
    if (typeof item === "number")
      return void (Number.isFinite(item) || refuse(`${item} is not a finite number`));
    if (Array.isArray(item)) return item.forEach((x) => visit(x, depth + 1));
    if (typeof item === "object") {
      const proto = Object.getPrototypeOf(item);
      if (proto !== Object.prototype && proto !== null) refuse("found a class instance");
      return Object.values(item as object).forEach((x) => visit(x, depth + 1));
    }
    refuse(`found ${item === undefined ? "undefined" : `a ${typeof item}`}`);
  };
  visit(value, 0);
}

export class FilePluginState implements PluginState {
  readonly file: string;
  #values: Record<string, JsonValue> | null = null;

  constructor(home: string, pluginId: string) {
    this.file = path.join(pluginDataDir(home, pluginId), STATE_FILE);
  }

  #load(): Record<string, JsonValue> {
    if (this.#values) return this.#values;
    let values: Record<string, JsonValue> = {};
    try {
      const parsed: unknown = JSON.parse(fs.readFileSync(this.file, "utf8"));
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed))
        values = parsed as Record<string, JsonValue>;
    } catch {
      // Missing or unreadable: start empty; the next write replaces it.
    }
    this.#values = values;
    return values;
  }

  #pending = false;

  /**
   * Writes on the next turn of the event loop, once for every change made until then: a worker
   * that sets many keys in a row costs one write of the file, not one per key.
   */
  #save(): void {
    if (this.#pending) return;
    this.#pending = true;
    setImmediate(() => this.flush());
  }

  /** Writes the current values now (atomically: a temp file, then rename). */
  flush(): void {
    if (!this.#pending) return;
    this.#pending = false;
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, JSON.stringify(this.#values ?? {}, null, 2), { mode: 0o600 });
    fs.renameSync(temp, this.file);
  }

  /** Every value, for the worker's mirror. */
  snapshot(): Record<string, JsonValue> {
    return structuredClone(this.#load());
  }

  get<T = JsonValue>(key: string): T | undefined {
    const values = this.#load();
    if (!Object.prototype.hasOwnProperty.call(values, key)) return undefined;
    // A copy, so mutating the result does not change the stored value behind the plugin's back.
    return structuredClone(values[key]) as T;
  }

  set(key: string, value: JsonValue): void {
    if (typeof key !== "string" || key === "") throw new TypeError("ctx.state keys are non-empty strings");
    assertJson(value, key);
    this.#load()[key] = structuredClone(value);
    this.#save();
  }

  delete(key: string): boolean {
    const values = this.#load();
    if (!Object.prototype.hasOwnProperty.call(values, key)) return false;
    delete values[key];
    this.#save();
    return true;
  }
}
