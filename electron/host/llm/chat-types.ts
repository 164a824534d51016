/** The OpenAI chat shapes the engine sends and returns, kept to what the app uses. */
export type ContentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string; detail?: "auto" | "low" | "high" } };

export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string | ContentPart[] }
  | { role: "assistant"; content: string | null; tool_calls?: ToolCall[] }
  | { role: "tool"; content: string; tool_call_id: string };

export interface ToolDefinition {
  type: "function";
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

/** Request-shaping fields; `model` and streaming flags are set by the engine from the route. */
export interface ChatBody {
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  tool_choice?: unknown;
  temperature?: number;
  max_tokens?: number;
  response_format?: Record<string, unknown>;
}
