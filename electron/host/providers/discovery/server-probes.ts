/**
 * What each kind of local server says about itself, read from its documented API: Ollama's
 * `/api/tags` (+ `/api/show` per model) and its OpenAI-compatible `/v1/models`; llama.cpp's
 * `/v1/models` and `/props` (`n_ctx`, vision); vLLM's `/v1/models` (`max_model_len`); LM Studio's
 * `/v1/models` and `/api/v0/models` (`max_context_length`, `type`); Jan's `/v1/models`. Extras that
 * miss the deadline are simply not shown; only the answers that make a server usable decide.
 */
import { jsonOf, probeHttp, type ProbeAnswer } from "./http-probe.js";
import type { DiscoveredModel, LocalServerKind } from "../../rpc/methods/provider-discovery.js";

export type { DiscoveredModel };

/** null: nothing answers there (left out of the answer). */
export type ProbeOutcome =
  { status: "found"; models: DiscoveredModel[] } | { status: "not_model_server" } | null;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The config schema takes context windows of at least 256 tokens. */
const contextWindow = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isInteger(value) && value >= 256 ? value : undefined;

const notModelServer = { status: "not_model_server" } as const;

/** The entries of an OpenAI `/models` list (`{data: [{id}]}`), or null when the body is not one. */
export function openAiModelList(body: unknown): Json[] | null {
  if (!isObject(body) || !Array.isArray(body["data"])) return null;
  const entries = body["data"].filter(isObject);
  if (entries.length !== body["data"].length || entries.some((m) => typeof m["id"] !== "string")) return null;
  return entries;
}

/** Nobody listening → left out; anything else that is not an OpenAI model list → not a model server. */
function listOrOutcome(answer: ProbeAnswer): Json[] | ProbeOutcome {
  if (answer.kind === "unreachable") return null;
  return openAiModelList(jsonOf(answer)) ?? notModelServer;
}

export async function probeLocalServer(
  kind: LocalServerKind,
  origin: string,
  deadline: number,
): Promise<ProbeOutcome> {
  if (kind === "ollama") return probeOllama(origin, deadline);
  const [listAnswer, extras] = await Promise.all([
    probeHttp({ url: `${origin}/v1/models`, deadline }),
    kind === "llamacpp"
      ? llamaCppProps(origin, deadline)
      : kind === "lmstudio"
        ? lmStudioModels(origin, deadline)
        : Promise.resolve(null),
  ]);
  const list = listOrOutcome(listAnswer);
  if (!Array.isArray(list)) return list;
  const models = list.map((entry): DiscoveredModel & { skip?: boolean } => {
    const id = entry["id"] as string;
    // vLLM says each model's context length in its list entry.
    const fromList = contextWindow(entry["max_model_len"]);
    const extra = extras?.(id);
    return compact({
      id,
      context_window: extra?.context_window ?? fromList,
      vision: extra?.vision,
      skip: extra?.skip,
    });
  });
  return { status: "found", models: models.filter((m) => !m.skip).map(stripSkip) };
}

type Extras = (id: string) => (Omit<DiscoveredModel, "id"> & { skip?: boolean }) | undefined;

/** llama-server serves one model; `/props` holds its context size and whether it takes images. */
async function llamaCppProps(origin: string, deadline: number): Promise<Extras | null> {
  const props = jsonOf(await probeHttp({ url: `${origin}/props`, deadline }));
  if (!isObject(props)) return null;
  const settings = isObject(props["default_generation_settings"]) ? props["default_generation_settings"] : {};
  const modalities = isObject(props["modalities"]) ? props["modalities"] : {};
  const found = {
    context_window: contextWindow(settings["n_ctx"]) ?? contextWindow(props["n_ctx"]),
    vision: typeof modalities["vision"] === "boolean" ? modalities["vision"] : undefined,
  };
  return () => found;
}

/** LM Studio's own REST list says each model's type (llm, vlm, embeddings) and context length. */
async function lmStudioModels(origin: string, deadline: number): Promise<Extras | null> {
  const list = openAiModelList(jsonOf(await probeHttp({ url: `${origin}/api/v0/models`, deadline })));
  if (!list) return null;
  const byId = new Map(list.map((m) => [m["id"] as string, m]));
  return (id) => {
    const entry = byId.get(id);
    if (!entry) return undefined;
    return {
      context_window: contextWindow(entry["max_context_length"]),
      vision: entry["type"] === "vlm" ? true : entry["type"] === "llm" ? false : undefined,
      skip: entry["type"] === "embeddings",
    };
  };
}

/**
 * Ollama: `/api/tags` says it is Ollama; its `/v1` must answer too, since that is what chat uses.
 * `/api/show` per model adds the context length and whether it takes images (or only embeds).
 */
async function probeOllama(origin: string, deadline: number): Promise<ProbeOutcome> {
  const tagsAnswer = await probeHttp({ url: `${origin}/api/tags`, deadline });
  if (tagsAnswer.kind === "unreachable") return null;
  const tags = jsonOf(tagsAnswer);
  if (!isObject(tags) || !Array.isArray(tags["models"])) return notModelServer;
  const names = tags["models"]
    .filter(isObject)
    .map((m) => (typeof m["model"] === "string" ? m["model"] : m["name"]))
    .filter((name): name is string => typeof name === "string" && name !== "");
  const [listAnswer, ...shown] = await Promise.all([
    probeHttp({ url: `${origin}/v1/models`, deadline }),
    ...names.map((name) =>
      probeHttp({ url: `${origin}/api/show`, method: "POST", json: { model: name }, deadline }),
    ),
  ]);
  const list = listOrOutcome(listAnswer);
  if (!Array.isArray(list)) return list ?? notModelServer;
  const details = new Map(names.map((name, i) => [name, ollamaShow(jsonOf(shown[i]!))]));
  const models = list.map((entry) => {
    const id = entry["id"] as string;
    return compact({ id, ...details.get(id) });
  });
  return { status: "found", models: models.filter((m) => !m.skip).map(stripSkip) };
}

function ollamaShow(body: unknown): (Omit<DiscoveredModel, "id"> & { skip?: boolean }) | undefined {
  if (!isObject(body)) return undefined;
  const info = isObject(body["model_info"]) ? body["model_info"] : {};
  const lengthKey = Object.keys(info).find((key) => key.endsWith(".context_length"));
  const capabilities = Array.isArray(body["capabilities"]) ? body["capabilities"] : null;
  return {
    context_window: lengthKey ? contextWindow(info[lengthKey]) : undefined,
    vision: capabilities ? capabilities.includes("vision") : undefined,
    // An embedding-only model cannot chat.
    skip: capabilities ? capabilities.includes("embedding") && !capabilities.includes("completion") : false,
  };
}

function compact<T extends Record<string, unknown>>(value: T): T {
  for (const key of Object.keys(value)) if (value[key] === undefined) delete value[key];
  return value;
}

function stripSkip(model: DiscoveredModel & { skip?: boolean }): DiscoveredModel {
  const { skip: _skip, ...rest } = model;
  return rest;
}
