/**
 * `providers.discover` (docs/contract.md §6.1.1): every well-known local server and every local
 * base URL the user configured, probed in parallel, each within its own deadline (300 ms), so
 * the whole scan is over in well under a second. It only reads: adding a server is
 * `providers.save` without a key.
 */
import type { ProviderConfig } from "../../config/config-schema.js";
import type { DiscoveredServer, LocalServerKind } from "../../rpc/methods/provider-discovery.js";
import { isPrivateEndpoint } from "../../models/private-endpoint.js";
import { slugifyProviderId } from "../../rpc/shared-rules/provider-id.js";
import { jsonOf, probeHttp } from "./http-probe.js";
import { LOCAL_SERVER_NAMES, localServerTargets, type LocalServerTarget } from "./local-servers.js";
import { openAiModelList, probeLocalServer } from "./server-probes.js";

export interface DiscoveryOptions {
  /** Where OLLAMA_HOST and friends are read. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Replaces the well-known targets (tests point them at their own servers). */
  targets?: readonly LocalServerTarget[];
  /** Per server; `HERMES_DESKTOP_DISCOVERY_TIMEOUT_MS` from `env`, else 300 ms. */
  timeoutMs?: number;
}

/** Lets a slow machine (or an end-to-end test under load) give servers longer to answer. */
export const DISCOVERY_TIMEOUT_ENV = "HERMES_DESKTOP_DISCOVERY_TIMEOUT_MS";

export const DISCOVERY_TIMEOUT_MS = 300;

export class LocalServerDiscovery {
  constructor(
    private readonly providers: () => Readonly<Record<string, ProviderConfig>>,
    private readonly options: DiscoveryOptions = {},
  ) {}

  async discover(): Promise<{ servers: DiscoveredServer[] }> {
    const env = this.options.env ?? process.env;
    const deadline = Date.now() + (this.options.timeoutMs ?? timeoutFrom(env) ?? DISCOVERY_TIMEOUT_MS);
    const configured = this.providers();
    const targets = this.options.targets ?? localServerTargets(env);
    const wellKnown = targets.map(async (target) => {
      const outcome = await probeLocalServer(target.kind, target.origin, deadline);
      return outcome && { kind: target.kind, base_url: `${target.origin}/v1`, ...outcome };
    });
    const probedOrigins = new Set(targets.map((t) => originOf(t.origin)));
    const typed = typedBaseUrls(configured, probedOrigins).map((baseUrl) => probeTypedUrl(baseUrl, deadline));
    const answers = await Promise.all([...wellKnown, ...typed]);

    const taken = new Set(Object.keys(configured));
    const servers: DiscoveredServer[] = [];
    for (const answer of answers) {
      if (!answer) continue;
      const existing = providerWithBaseUrl(configured, answer.base_url);
      const providerId = existing ?? freeId(answer.kind, taken);
      if (!existing) taken.add(providerId);
      servers.push({
        kind: answer.kind,
        base_url: answer.base_url,
        status: answer.status,
        models: answer.status === "found" ? answer.models : [],
        providerId,
        added: existing !== null,
        name: existing ? configured[existing]!.name : LOCAL_SERVER_NAMES[answer.kind],
      });
    }
    return { servers };
  }
}

/** Configured providers on this machine or the local network that the well-known probes do not cover. */
function typedBaseUrls(
  configured: Readonly<Record<string, ProviderConfig>>,
  probed: Set<string | null>,
): string[] {
  const urls = new Set<string>();
  for (const provider of Object.values(configured)) {
    if (!isPrivateEndpoint(provider.base_url)) continue;
    const origin = originOf(provider.base_url);
    if (origin && !probed.has(origin)) urls.add(provider.base_url.replace(/\/+$/, ""));
  }
  return [...urls];
}

/**
 * A base URL the user typed: which kind of server it is, told by what it answers (Ollama's
 * `/api/tags`, llama.cpp's `/props`, the `owned_by` of its models). One that answers as none of
 * them is left out: discovery reports only the kinds it knows.
 */
async function probeTypedUrl(baseUrl: string, deadline: number) {
  const origin = originOf(baseUrl)!;
  const [list, tags, props] = await Promise.all([
    probeHttp({ url: `${baseUrl}/models`, deadline }),
    probeHttp({ url: `${origin}/api/tags`, deadline }),
    probeHttp({ url: `${origin}/props`, deadline }),
  ]);
  const tagsBody = jsonOf(tags);
  let kind: LocalServerKind | null = null;
  if (isRecord(tagsBody) && Array.isArray(tagsBody["models"])) kind = "ollama";
  else if (isRecord(jsonOf(props))) kind = "llamacpp";
  else {
    const owners = new Set((openAiModelList(jsonOf(list)) ?? []).map((m) => m["owned_by"]));
    if (owners.has("vllm")) kind = "vllm";
    else if (owners.has("llamacpp")) kind = "llamacpp";
    else if (owners.has("organization_owner")) kind = "lmstudio";
  }
  if (!kind) return null;
  const outcome = await probeLocalServer(kind, origin, deadline);
  return outcome && { kind, base_url: baseUrl, ...outcome };
}

function timeoutFrom(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const value = Number(env[DISCOVERY_TIMEOUT_ENV]);
  return Number.isInteger(value) && value > 0 && value <= 60_000 ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The URL's origin, `localhost` read as 127.0.0.1 (so one server is probed once). */
function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.hostname === "localhost") parsed.hostname = "127.0.0.1";
    return parsed.origin;
  } catch {
    return null;
  }
}

/** Compares base URLs the way a person means them: `localhost` is 127.0.0.1, a trailing / is nothing. */
export function sameBaseUrl(a: string, b: string): boolean {
  const normal = (url: string) => {
    try {
      const parsed = new URL(url);
      if (parsed.hostname === "localhost") parsed.hostname = "127.0.0.1";
      return parsed.toString().replace(/\/+$/, "");
    } catch {
      return url.replace(/\/+$/, "");
    }
  };
  return normal(a) === normal(b);
}

function providerWithBaseUrl(
  configured: Readonly<Record<string, ProviderConfig>>,
  baseUrl: string,
): string | null {
  for (const [id, provider] of Object.entries(configured))
    if (sameBaseUrl(provider.base_url, baseUrl)) return id;
  return null;
}

/** `ollama`, or `ollama-2`, `ollama-3`… when a provider with another base URL holds the name. */
function freeId(kind: LocalServerKind, taken: Set<string>): string {
  const base = slugifyProviderId(kind);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}
