/** Tools plugins registered for the agent (docs/contract.md §5.2 `registerTool`). */
import { PluginOwnedRegistry } from "./plugin-owned-registry.js";

export interface ToolCallContext {
  sessionId: string;
  /** `plugin_fork:<id>` inside a fork; absent otherwise. */
  turnOrigin?: string;
}

export interface RegisteredTool {
  pluginId: string;
  name: string;
  toolset: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
  handler: (args: unknown, ctx: ToolCallContext) => unknown;
}

export class ToolNameTakenError extends Error {
  override readonly name = "ToolNameTakenError";
}

export class ToolRegistry extends PluginOwnedRegistry<RegisteredTool> {
  constructor() {
    super(
      (name, ownerId) =>
        new ToolNameTakenError(
          `The tool name "${name}" is already registered by plugin '${ownerId}'; pick another name.`,
        ),
    );
  }
}
