/** Slash commands plugins registered (SPEC §5.2 `registerCommand`). */
export interface CommandContext {
  sessionId: string;
  gatewaySessionKey: string;
}

export interface RegisteredCommand {
  pluginId: string;
  /** Without the slash: `/tldr` is `tldr`. */
  name: string;
  description: string;
  argsHint: string;
  handler: (rawArgs: string, ctx: CommandContext) => unknown;
}

export const commandNamePattern = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export class CommandCollisionError extends Error {
  override readonly name = "CommandCollisionError";
}

/** Names the app itself handles in the composer. */
export const builtinCommands = new Set(["steer", "new", "help"]);

export class CommandRegistry {
  private readonly commands = new Map<string, RegisteredCommand>();

  register(command: RegisteredCommand): () => void {
    if (!commandNamePattern.test(command.name)) {
      throw new CommandCollisionError(
        `"/${command.name}" is not a valid command name: use a-z, 0-9, "-" and "_".`,
      );
    }
    if (builtinCommands.has(command.name)) {
      throw new CommandCollisionError(`"/${command.name}" is a built-in command; pick another name.`);
    }
    const existing = this.commands.get(command.name);
    if (existing && existing.pluginId !== command.pluginId) {
      throw new CommandCollisionError(
        `"/${command.name}" is already registered by plugin '${existing.pluginId}'; pick another name.`,
      );
    }
    this.commands.set(command.name, command);
    return () => {
      if (this.commands.get(command.name) === command) this.commands.delete(command.name);
    };
  }

  removePlugin(pluginId: string): void {
    for (const [name, c] of this.commands) if (c.pluginId === pluginId) this.commands.delete(name);
  }

  get(name: string): RegisteredCommand | undefined {
    return this.commands.get(name);
  }

  list(): RegisteredCommand[] {
    return [...this.commands.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}
