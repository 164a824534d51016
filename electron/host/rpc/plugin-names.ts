/**
 * Plugin RPC and plugin events (docs/contract.md §8, §11) at the contract level: what a plugin method's and a
 * plugin event's name may be, how `plugin.<id>.<method>` splits, and the one rule a page's bridge
 * enforces (a page calls only its own plugin's methods, hears only its own plugin's events for
 * the session it is shown with). Shared by the host, both transports and the renderer.
 */

export const pluginIdPattern = /^[a-z0-9_-]{1,64}$/;
/** Dot-separated segments of `[A-Za-z0-9_-]`: no empty segment, no leading or trailing dot. */
const dottedSegments = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;
export const MAX_PLUGIN_NAME_LENGTH = 128;

/** Why `name` can't be a plugin RPC method or event name, or null when it can. */
export function pluginNameProblem(kind: "method" | "event", name: unknown): string | null {
  if (typeof name !== "string" || name === "") return `A plugin ${kind} name must be a non-empty string.`;
  if (name.length > MAX_PLUGIN_NAME_LENGTH)
    return `The plugin ${kind} name "${name.slice(0, 40)}…" is longer than ${MAX_PLUGIN_NAME_LENGTH} characters.`;
  if (!dottedSegments.test(name)) {
    return `"${name}" is not a valid plugin ${kind} name: use dot-separated segments of letters, digits, "_" and "-" (e.g. "chart.suggest").`;
  }
  return null;
}

const methodPrefix = "plugin.";

export const isPluginMethod = (method: string): boolean => method.startsWith(methodPrefix);

/** `plugin.<id>.<method>` split, or null when it is not one. */
export function splitPluginMethod(full: string): { pluginId: string; method: string } | null {
  if (!isPluginMethod(full)) return null;
  const rest = full.slice(methodPrefix.length);
  const dot = rest.indexOf(".");
  if (dot <= 0) return null;
  return { pluginId: rest.slice(0, dot), method: rest.slice(dot + 1) };
}

export const pluginMethodName = (pluginId: string, method: string): string =>
  `${methodPrefix}${pluginId}.${method}`;

export const pluginEventType = (pluginId: string, event: string): string =>
  `${methodPrefix}${pluginId}.${event}`;

/**
 * The full method name a page of `ownId` may call for `requested` (its own method name, or the
 * same spelled out as `plugin.<ownId>.<method>`). Another plugin's method is refused.
 */
export function pageMethodFor(
  ownId: string,
  requested: unknown,
):
  | { ok: true; method: string }
  | { ok: false; reason: "plugin_forbidden" | "method_not_found"; message: string } {
  if (typeof requested !== "string")
    return { ok: false, reason: "method_not_found", message: "hermesPlugin.request needs a method name." };
  const spelled = splitPluginMethod(requested);
  if (spelled && spelled.pluginId !== ownId) {
    return {
      ok: false,
      reason: "plugin_forbidden",
      message: `A page of plugin '${ownId}' may call only its own methods, not "${requested}".`,
    };
  }
  const method = spelled ? spelled.method : requested;
  const problem = pluginNameProblem("method", method);
  return problem
    ? { ok: false, reason: "method_not_found", message: problem }
    : { ok: true, method: pluginMethodName(ownId, method) };
}

/**
 * A page's params as they go on to its plugin, the same on the page socket and through the app
 * window's bridge: a plain JSON object, whose `session_id` is the session the page is shown with,
 * never one the page names.
 */
export function pageParamsFor(
  params: unknown,
  sessionId: string | null,
): { ok: true; params: Record<string, unknown> } | { ok: false; reason: "invalid_params"; message: string } {
  const plain =
    typeof params === "object" &&
    params !== null &&
    !Array.isArray(params) &&
    [Object.prototype, null].includes(Object.getPrototypeOf(params) as object | null);
  if (!plain) return { ok: false, reason: "invalid_params", message: "params must be a JSON object." };
  const stamped: Record<string, unknown> = { ...(params as Record<string, unknown>) };
  delete stamped.session_id;
  if (sessionId) stamped.session_id = sessionId;
  return { ok: true, params: stamped };
}

export interface PluginEvent {
  pluginId: string;
  event: string;
  sessionId: string;
  payload: Record<string, unknown>;
}

/** An event frame's params when it is a plugin's session event (`plugin.<id>.<event>`), else null. */
export function readPluginEvent(params: unknown): PluginEvent | null {
  if (typeof params !== "object" || params === null) return null;
  const { type, session_id: sessionId, payload } = params as Record<string, unknown>;
  if (typeof type !== "string" || typeof sessionId !== "string") return null;
  const split = splitPluginMethod(type);
  if (!split || !pluginIdPattern.test(split.pluginId)) return null;
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return null;
  return {
    pluginId: split.pluginId,
    event: split.method,
    sessionId,
    payload: payload as Record<string, unknown>,
  };
}

/** The scheme of a plugin page's URL in `plugins.list` (the desktop serves it as is). */
export const PLUGIN_PAGE_SCHEME = "hermes-plugin";
/** The query parameter of a page frame's source carrying its page token (`plugins.pageSession`). */
export const PAGE_TOKEN_PARAM = "hermesToken";
/** Where web mode serves `hermes-plugin://<id>/<path>`: `/plugin-pages/<id>/<path>`. */
export const PLUGIN_PAGES_PATH = "/plugin-pages/";

/**
 * The frame source for a page URL from `plugins.list`, carrying the session it is shown with, the
 * app's origin (which the page's bridge posts to) and the frame's page token
 * (`plugins.pageSession`, `hermesToken`); null for a URL that is not a plugin page.
 */
export function pageFrameSrc(
  pageUrl: string,
  how: { web: boolean; sessionId: string | null; parentOrigin: string; token: string },
): string | null {
  let url: URL;
  try {
    url = new URL(pageUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${PLUGIN_PAGE_SCHEME}:` || !pluginIdPattern.test(url.host)) return null;
  const query = new URLSearchParams({ hermesParent: how.parentOrigin });
  if (how.sessionId) query.set("hermesSession", how.sessionId);
  query.set(PAGE_TOKEN_PARAM, how.token);
  const path = url.pathname.replace(/^\/+/, "");
  return how.web
    ? `${PLUGIN_PAGES_PATH}${url.host}/${path}?${query.toString()}`
    : `${PLUGIN_PAGE_SCHEME}://${url.host}/${path}?${query.toString()}`;
}
