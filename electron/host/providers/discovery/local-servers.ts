/**
 * The local model servers discovery looks for (docs/contract.md §6.1.1), where each listens by default,
 * and the environment variables their own tools honour to move it (`OLLAMA_HOST`; llama-server's
 * `LLAMA_ARG_HOST` / `LLAMA_ARG_PORT`).
 */

import { LOCAL_SERVER_KINDS, type LocalServerKind } from "../../rpc/methods/provider-discovery.js";

export type { LocalServerKind };

export interface LocalServerTarget {
  kind: LocalServerKind;
  /** `http://127.0.0.1:11434`: where the server's own API lives (no `/v1`). */
  origin: string;
}

/** What a found server is called when it is offered as a provider. */
export const LOCAL_SERVER_NAMES: Record<LocalServerKind, string> = {
  ollama: "Ollama",
  lmstudio: "LM Studio",
  llamacpp: "llama.cpp server",
  vllm: "vLLM",
  jan: "Jan",
};

const defaultPorts: Record<LocalServerKind, number> = {
  ollama: 11434,
  lmstudio: 1234,
  llamacpp: 8080,
  vllm: 8000,
  jan: 1337,
};

type Env = Readonly<Record<string, string | undefined>>;

/** One target per kind, in the order of `LOCAL_SERVER_KINDS`, each moved by its variable when set. */
export function localServerTargets(env: Env): LocalServerTarget[] {
  return LOCAL_SERVER_KINDS.map((kind) => ({ kind, origin: originFor(kind, env) }));
}

function originFor(kind: LocalServerKind, env: Env): string {
  const fallback = `http://127.0.0.1:${defaultPorts[kind]}`;
  if (kind === "ollama") return ollamaOrigin(env["OLLAMA_HOST"]) ?? fallback;
  if (kind === "llamacpp") {
    const host = env["LLAMA_ARG_HOST"]?.trim();
    const port = env["LLAMA_ARG_PORT"]?.trim();
    if (!host && !port) return fallback;
    return originOf("http", host || "127.0.0.1", port && /^\d{1,5}$/.test(port) ? port : "8080") ?? fallback;
  }
  return fallback;
}

/**
 * `OLLAMA_HOST` as Ollama reads it: `host`, `host:port`, `:port` or `scheme://host[:port]`; a
 * bare host keeps port 11434, an explicit http/https scheme without a port means 80/443. A host
 * that means "every interface" (0.0.0.0, ::) is reached on loopback. Null when it can't be read.
 */
export function ollamaOrigin(raw: string | undefined): string | null {
  const text = raw?.trim();
  if (!text) return null;
  const schemeMatch = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/i.exec(text);
  const scheme = schemeMatch ? schemeMatch[1]!.toLowerCase() : "http";
  if (scheme !== "http" && scheme !== "https") return null;
  const rest = (schemeMatch ? schemeMatch[2]! : text).replace(/\/.*$/, "");
  const defaultPort = !schemeMatch ? "11434" : scheme === "https" ? "443" : "80";
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(rest);
  let host: string;
  let port: string | undefined;
  if (bracketed) {
    host = bracketed[1]!;
    port = bracketed[2];
  } else {
    const colon = rest.lastIndexOf(":");
    const looksLikeIpv6 = rest.indexOf(":") !== colon;
    host = colon >= 0 && !looksLikeIpv6 ? rest.slice(0, colon) : rest;
    port = colon >= 0 && !looksLikeIpv6 ? rest.slice(colon + 1) : undefined;
  }
  if (port !== undefined && !/^\d{1,5}$/.test(port)) return null;
  return originOf(scheme, host || "127.0.0.1", port ?? defaultPort);
}

function originOf(scheme: string, host: string, port: string): string | null {
  const reachable = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host;
  const hostPart = reachable.includes(":") ? `[${reachable}]` : reachable;
  try {
    return new URL(`${scheme}://${hostPart}:${port}`).origin;
  } catch {
    return null;
  }
}
