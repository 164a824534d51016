/** Tools plugins registered for the agent (SPEC §5.2 `registerTool`). */
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

export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();

  register(tool: RegisteredTool): () => void {
    const existing = this.tools.get(tool.name);
    if (existing && existing.pluginId !== tool.pluginId) {
      throw new ToolNameTakenError(
        `The tool name "${tool.name}" is already registered by plugin '${existing.pluginId}'; pick another name.`,
      );
    }
    this.tools.set(tool.name, tool);
    return () => {
      if (this.tools.get(tool.name) === tool) this.tools.delete(tool.name);
    };
  }

  removePlugin(pluginId: string): void {
    for (const [name, tool] of this.tools) if (tool.pluginId === pluginId) this.tools.delete(name);
  }

  get(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }

  list(): RegisteredTool[] {
    return [...this.tools.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}
