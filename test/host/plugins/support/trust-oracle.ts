/**
 * What docs/contract.md §6.6 and §7 say a plugin's model call may do, written from the contract's text alone
 * (no import from the app): for a `plugins.entries.<id>` block and a call's route arguments, either
 * "passes" or the refusals the contract documents for it. A call that breaks several rules may be
 * refused for any one of them (the contract orders none); each refusal names the error class
 * plugins branch on and the words (and config key) the contract puts in its message.
 */

export const CAPABILITIES = [
  "llm.side_question",
  "llm.session_fork",
  "llm.provider_override",
  "llm.model_override",
  "llm.task_override",
] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** §7.1: the config key each override capability gates. */
const GATED_KEY: Partial<Record<Capability, string>> = {
  "llm.provider_override": "allow_provider_override",
  "llm.model_override": "allow_model_override",
  "llm.task_override": "allow_task_override",
};

/** §6.2: the built-in slots the app runs (the reserved Hermes keys are no slot at all). */
export const BUILTIN_SLOTS = ["vision", "compression", "title_generation", "background_review"];

export interface LlmPolicyBlock {
  allow_provider_override?: boolean;
  allowed_providers?: string[];
  allow_model_override?: boolean;
  allowed_models?: string[];
  allow_agent_id_override?: boolean;
  allow_profile_override?: boolean;
  allow_task_override?: boolean;
}

export interface EntryBlock {
  llm?: LlmPolicyBlock;
  granted_capabilities?: string[];
  capabilities_consent?: { hash: string; granted_at: string };
}

export interface RouteArgs {
  provider?: string;
  model?: string;
  agentId?: string;
  profile?: string;
  task?: string;
}

export interface World {
  pluginId: string;
  /** Configured provider ids, as spelled in config, with their stored auth profiles (§4). */
  providers: Record<string, string[]>;
  mainProvider: string;
  /** Slots this plugin registered itself; `othersSlots` registered by other plugins. */
  ownSlots: string[];
  othersSlots: string[];
}

export interface Refusal {
  name: "PluginLlmTrustError" | "PluginLlmInputError";
  /** Every one of these is in the message. */
  says: string[];
}

export type Verdict = { passes: true } | { passes: false; acceptable: Refusal[] };

const key = (w: World, field: string) => `plugins.entries.${w.pluginId}.llm.${field}`;

/**
 * §7.1/§7.2: a grant is the `llm.allow_*` flag set to true, or (for the three override
 * capabilities) the capability in `granted_capabilities`. The consent hash only decides what is
 * asked again; it never grants or revokes.
 */
export function granted(entry: EntryBlock | undefined, flag: keyof LlmPolicyBlock): boolean {
  if (entry?.llm?.[flag] === true) return true;
  const capability = (Object.keys(GATED_KEY) as Capability[]).find((c) => GATED_KEY[c] === flag);
  return capability !== undefined && (entry?.granted_capabilities ?? []).includes(capability);
}

/** §6.6: absent allows any value; an empty list none; `"*"` any; otherwise case-insensitive. */
function allowlisted(list: string[] | undefined, value: string): boolean {
  if (list === undefined) return true;
  return list.some((item) => item === "*" || item.toLowerCase() === value.toLowerCase());
}

const configuredId = (w: World, provider: string) =>
  Object.keys(w.providers).find((id) => id.toLowerCase() === provider.toLowerCase());

export function judgeLlmCall(w: World, entry: EntryBlock | undefined, args: RouteArgs): Verdict {
  const acceptable: Refusal[] = [];
  const trust = (...says: string[]) => acceptable.push({ name: "PluginLlmTrustError", says });
  const input = (...says: string[]) => acceptable.push({ name: "PluginLlmInputError", says });
  const llm = entry?.llm;

  if (args.provider !== undefined) {
    if (!granted(entry, "allow_provider_override"))
      trust("cannot override the provider", key(w, "allow_provider_override"));
    else if (!allowlisted(llm?.allowed_providers, args.provider))
      trust(`is not in ${key(w, "allowed_providers")}`);
    if (configuredId(w, args.provider) === undefined) input("unknown provider");
  }
  if (args.model !== undefined) {
    if (!granted(entry, "allow_model_override"))
      trust("cannot override the model", key(w, "allow_model_override"));
    else if (!allowlisted(llm?.allowed_models, args.model)) trust(`is not in ${key(w, "allowed_models")}`);
  }
  // The app has one agent, `main`: any other is an override, and granted it still names no agent.
  if (args.agentId !== undefined && args.agentId !== "main") {
    if (!granted(entry, "allow_agent_id_override"))
      trust("non-default agent id", key(w, "allow_agent_id_override"));
    else input(args.agentId);
  }
  // `default` is the route's own credentials; another profile must be one the route's provider stores.
  if (args.profile !== undefined && args.profile !== "default") {
    if (!granted(entry, "allow_profile_override"))
      trust("cannot override the auth profile", key(w, "allow_profile_override"));
    else {
      const routeProvider = configuredId(w, args.provider ?? w.mainProvider);
      if (!routeProvider || !(w.providers[routeProvider] ?? []).includes(args.profile)) input(args.profile);
    }
  }
  if (args.task !== undefined && args.task !== "auto") {
    if (BUILTIN_SLOTS.includes(args.task)) {
      if (!granted(entry, "allow_task_override")) trust(key(w, "allow_task_override"));
    } else if (!w.ownSlots.includes(args.task)) trust(args.task);
  }
  return acceptable.length === 0 ? { passes: true } : { passes: false, acceptable };
}

/**
 * §7.3/§7.4: `ctx.sideQuestion` needs `llm.side_question`, `ctx.forkSession` `llm.session_fork`:
 * declared by the plugin and granted by the user (§7.2: declining leaves it off; anything
 * unreadable reads as not granted). Without it the call gets null and the token stays unspent.
 */
export function holdsLeaseCapability(
  declared: readonly string[],
  entry: EntryBlock | undefined,
  capability: "llm.side_question" | "llm.session_fork",
): boolean {
  return declared.includes(capability) && (entry?.granted_capabilities ?? []).includes(capability);
}
