/**
 * What a server may ask the app (docs/contract.md §13.4): roots, sampling, elicitation. The
 * connection installs these on its Client; the manager answers them.
 */
import type {
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  ListRootsResult,
} from "@modelcontextprotocol/sdk/types.js";
import type { McpServerConfig } from "../server-config.js";

export interface ServerRequestHandlers {
  roots(config: McpServerConfig): ListRootsResult;
  sampling(
    config: McpServerConfig,
    params: CreateMessageRequest["params"],
    signal: AbortSignal,
  ): Promise<CreateMessageResult>;
  elicitation(
    config: McpServerConfig,
    params: ElicitRequest["params"],
    signal: AbortSignal,
  ): Promise<ElicitResult>;
}
