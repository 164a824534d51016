/** The providers offered when adding one (docs/contract.md §6.1). Pure data: the renderer shows these. */
export interface ProviderPreset {
  id: string;
  name: string;
  base_url: string;
  key_env: string | null;
  /** Local servers usually run without a key. */
  needsKey: boolean;
  blurb: string;
}

export const providerPresets: readonly ProviderPreset[] = [
  {
    id: "openrouter",
    name: "OpenRouter",
    base_url: "https://openrouter.ai/api/v1",
    key_env: "OPENROUTER_API_KEY",
    needsKey: true,
    blurb: "Hundreds of models behind one key.",
  },
  {
    id: "openai",
    name: "OpenAI",
    base_url: "https://api.openai.com/v1",
    key_env: "OPENAI_API_KEY",
    needsKey: true,
    blurb: "GPT models from OpenAI.",
  },
  {
    id: "llamacpp",
    name: "llama.cpp server",
    base_url: "http://127.0.0.1:8080/v1",
    key_env: null,
    needsKey: false,
    blurb: "llama-server on this machine.",
  },
  {
    id: "ollama",
    name: "Ollama",
    base_url: "http://127.0.0.1:11434/v1",
    key_env: null,
    needsKey: false,
    blurb: "Models pulled with Ollama.",
  },
  {
    id: "lmstudio",
    name: "LM Studio",
    base_url: "http://127.0.0.1:1234/v1",
    key_env: null,
    needsKey: false,
    blurb: "LM Studio's local server.",
  },
  {
    id: "vllm",
    name: "vLLM",
    base_url: "http://127.0.0.1:8000/v1",
    key_env: null,
    needsKey: false,
    blurb: "A vLLM OpenAI-compatible server.",
  },
];
