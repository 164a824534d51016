/** The OpenAI chat shapes the engine sends and returns, kept to what the app uses. */
import type {
  LlmContentPart,
  LlmMessage,
  LlmToolCall,
  LlmToolDefinition,
} from "../../../plugins/sdk/types.js";

// The plugin SDK declares the OpenAI shapes once; the engine uses the same ones.
export type ContentPart = LlmContentPart;
export type ToolCall = LlmToolCall;
export type ChatMessage = LlmMessage;
export type ToolDefinition = LlmToolDefinition;

/** Request-shaping fields; `model` and streaming flags are set by the engine from the route. */
export interface ChatBody {
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  tool_choice?: unknown;
  temperature?: number;
  max_tokens?: number;
  response_format?: Record<string, unknown>;
}
