/** Slash commands plugins registered (docs/contract.md §5.2 `registerCommand`). */
import { PluginOwnedRegistry } from "./plugin-owned-registry.js";

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

export class CommandRegistry extends PluginOwnedRegistry<RegisteredCommand> {
  constructor() {
    super(
      (name, ownerId) =>
        new CommandCollisionError(
          `"/${name}" is already registered by plugin '${ownerId}'; pick another name.`,
        ),
    );
  }

  override register(command: RegisteredCommand): () => void {
    if (!commandNamePattern.test(command.name)) {
      throw new CommandCollisionError(
        `"/${command.name}" is not a valid command name: use a-z, 0-9, "-" and "_".`,
      );
    }
    if (builtinCommands.has(command.name)) {
      throw new CommandCollisionError(`"/${command.name}" is a built-in command; pick another name.`);
    }
    return super.register(command);
  }
}
