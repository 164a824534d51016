/**
 * The `openai` SDK client for one provider. The SDK's own retries are off: a 429 or 5xx goes to the
 * next fallback provider instead (docs/contract.md §9.1), and "Test connection" must answer promptly.
 */
import OpenAI from "openai";
import { httpFetch } from "./http-fetch.js";

export interface ProviderEndpoint {
  baseURL: string;
  /** Local servers often need none; the SDK insists on a value, so a placeholder is sent. */
  apiKey: string | null;
  timeoutMs?: number;
}

const placeholderKey = "no-key";

export function createProviderClient(endpoint: ProviderEndpoint): OpenAI {
  return new OpenAI({
    baseURL: endpoint.baseURL.replace(/\/+$/, ""),
    apiKey: endpoint.apiKey ?? placeholderKey,
    maxRetries: 0,
    timeout: endpoint.timeoutMs ?? 600_000,
    dangerouslyAllowBrowser: false,
    fetch: httpFetch,
  });
}
