/**
 * The built-in auxiliary slots, their labels and what each does (docs/contract.md §6.2): written
 * once here, in the contract, because both sides show them. The host's slot registry
 * (models/auxiliary-tasks.ts) lists them first; the renderer names usage categories by them.
 */
export const BUILTIN_SLOTS = [
  { key: "vision", label: "Vision", description: "Describes images when the main model is text-only." },
  { key: "compression", label: "Compression", description: "Summarises older turns of a long session." },
  { key: "title_generation", label: "Title generation", description: "Session titles." },
  { key: "background_review", label: "Background review", description: "Proposes memory additions." },
  { key: "mcp", label: "MCP sampling", description: "Answers MCP servers' sampling requests." },
] as const;
