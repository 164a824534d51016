/** Hook names and payloads (SPEC §5.3). Payload keys are camelCase and public. */
import type { Usage } from "../llm/usage.js";

interface SessionScoped {
  sessionId: string;
  /** The key of the window or connection that owns the session. */
  gatewaySessionKey: string;
}

export interface HookPayloads {
  on_session_start: SessionScoped;
  on_session_end: SessionScoped;
  pre_llm_call: SessionScoped & { userMessage: string };
  post_llm_call: SessionScoped & {
    sideQuestionToken: string | null;
    reviewSignals: Record<string, unknown>;
    reply: string;
  };
  pre_tool_call: SessionScoped & { toolName: string; args: unknown; turnOrigin?: string };
  post_tool_call: SessionScoped & { toolName: string; args: unknown; result: unknown };
  pre_api_request: SessionScoped & { provider: string; model: string };
  post_api_request: SessionScoped & { provider: string; model: string; usage: Usage };
  pre_auxiliary_call: Partial<SessionScoped> & { auxTask: string; pluginId: string | null };
  post_auxiliary_call: Partial<SessionScoped> & { auxTask: string; pluginId: string | null; usage: Usage };
}

export type HookName = keyof HookPayloads;

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
