// The SDK side of the LLM figures' floors (SPEC §12: "openai SDK direct, same transport"): the
// `openai` SDK made exactly as the product makes its provider clients (provider-client.ts), so its
// `fetch` is the product's `httpFetch`. Measured against the SDK on undici's `fetch` instead, the
// ~0.15–0.2 ms the product's transport saves per request hid that much of the product's overhead.
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import OpenAI from "openai";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const { createProviderClient } = await import(
  pathToFileURL(join(root, "out", "electron", "host", "llm", "provider-client.js")).href
);

/** The floor's SDK client: the product's own client setup, transport included. */
export const floorSdk = (baseURL, apiKey) => createProviderClient({ baseURL, apiKey });

/** The SDK as it comes (undici's `fetch`), reported beside the floor for the other transport. */
export const stockSdk = (baseURL, apiKey) => new OpenAI({ baseURL, apiKey, maxRetries: 0 });
