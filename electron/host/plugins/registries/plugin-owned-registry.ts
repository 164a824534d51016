/**
 * Named entries that each belong to one plugin (slash commands, tools): a name another plugin
 * holds is refused, the owner registering again replaces its entry, and disabling a plugin
 * removes everything it registered at once.
 */
export interface PluginOwned {
  pluginId: string;
  name: string;
}

export class PluginOwnedRegistry<T extends PluginOwned> {
  private readonly entries = new Map<string, T>();

  /** `taken` builds the error for a name another plugin already holds. */
  constructor(private readonly taken: (name: string, ownerId: string) => Error) {}

  /** Returns a function that removes this entry (and not a later one under the same name). */
  register(entry: T): () => void {
    const existing = this.entries.get(entry.name);
    if (existing && existing.pluginId !== entry.pluginId) throw this.taken(entry.name, existing.pluginId);
    this.entries.set(entry.name, entry);
    return () => {
      if (this.entries.get(entry.name) === entry) this.entries.delete(entry.name);
    };
  }

  removePlugin(pluginId: string): void {
    for (const [name, entry] of this.entries) if (entry.pluginId === pluginId) this.entries.delete(name);
  }

  get(name: string): T | undefined {
    return this.entries.get(name);
  }

  /** Sorted by name. */
  list(): T[] {
    return [...this.entries.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}
