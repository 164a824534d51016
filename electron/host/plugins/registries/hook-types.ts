/** Hook names and payloads (docs/contract.md §5.3); the types live in the plugin SDK so they are written once. */
import type { HookName, HookPayloads } from "../../../../plugins/sdk/types.js";

export type { HookName, HookPayloads, HookResults } from "../../../../plugins/sdk/types.js";

export const hookNames: readonly HookName[] = [
  "on_session_start",
  "on_session_end",
  "pre_llm_call",
  "post_llm_call",
  "pre_tool_call",
  "post_tool_call",
  "pre_api_request",
  "post_api_request",
  "pre_auxiliary_call",
  "post_auxiliary_call",
];

export const isHookName = (name: string): name is HookName => (hookNames as readonly string[]).includes(name);

export type HookFn<H extends HookName = HookName> = (payload: HookPayloads[H]) => unknown;
