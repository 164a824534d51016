/**
 * Masks secrets in text (docs/contract.md §10): API keys of known shapes, bearer tokens, private keys,
 * credentials in URLs and every key the vault has seen. Runs on every log line, so the patterns
 * are compiled once and the known-keys pattern is rebuilt only when the key list changes.
 */

export interface RedactOptions {
  /** Mask even when `security.redact_secrets` is off. */
  force?: boolean;
}

export type Redact = (text: string, options?: RedactOptions) => string;

export interface RedactorOptions {
  /** Literal key values to mask (the vault's `knownKeys`). */
  knownKeys: () => readonly string[];
  /** `security.redact_secrets`, read on every call so config edits apply at once. */
  enabled: () => boolean;
}

export const MASK = "***";

/** Shorter known keys are skipped: they would mask ordinary words. */
export const MIN_KNOWN_KEY_LENGTH = 8;

interface Rule {
  pattern: RegExp;
  replace: (match: string, ...groups: string[]) => string;
}

// Prefixes worth keeping so a reader still sees which kind of key was there.
const KEY_PREFIX =
  /^(?:sk-(?:proj-|or-v1-|or-|ant-(?:api\d\d-|admin\d\d-)?|svcacct-|admin-)?|gh[pousr]_|github_pat_|AKIA|ASIA)/;

function maskKeepingPrefix(secret: string): string {
  return (KEY_PREFIX.exec(secret)?.[0] ?? "") + MASK;
}

// Order matters: whole blocks and URLs first, then key shapes, then generic "name = value" forms.
const RULES: readonly Rule[] = [
  {
    // A PEM private key block; an unterminated one (a cut log line) is masked to the end.
    pattern:
      /(-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY-----)[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|$)/g,
    replace: (_m, begin = "", kind = "") => `${begin}${MASK}-----END ${kind}PRIVATE KEY-----`,
  },
  {
    // scheme://user:password@host keeps scheme, user and host.
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/)([^\s:@/?#]*):([^\s@/?#]+)@/gi,
    replace: (_m, scheme = "", user = "") => `${scheme}${user}:${MASK}@`,
  },
  {
    pattern: /\bsk-(?:proj-|or-v1-|or-|ant-(?:api\d\d-|admin\d\d-)?|svcacct-|admin-)?[A-Za-z0-9_-]{16,}/g,
    replace: maskKeepingPrefix,
  },
  { pattern: /\bgh[pousr]_[A-Za-z0-9]{20,}/g, replace: maskKeepingPrefix },
  { pattern: /\bgithub_pat_[A-Za-z0-9_]{20,}/g, replace: maskKeepingPrefix },
  { pattern: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g, replace: maskKeepingPrefix },
  {
    pattern: /\b(aws_secret_access_key["']?\s*[:=]\s*["']?)([^\s"',;]+)/gi,
    replace: (_m, lead = "") => `${lead}${MASK}`,
  },
  {
    // "Bearer <token>"; a plain lowercase word after "Bearer" is prose ("a Bearer token"), not a token.
    // The token must end where token characters end, and not run into an earlier mask ("sk-***").
    pattern: /\b(Bearer\s+)([A-Za-z0-9\-._~+/]+=*)(?![A-Za-z0-9\-._~+/=*])/gi,
    replace: (match, lead = "", token = "") =>
      token.length < MIN_KNOWN_KEY_LENGTH || /^[a-z]+$/.test(token) ? match : `${lead}${MASK}`,
  },
  {
    pattern: /\b(Authorization["']?\s*[:=]\s*["']?Basic\s+)([A-Za-z0-9+/]+=*)/gi,
    replace: (_m, lead = "") => `${lead}${MASK}`,
  },
  {
    // Assignments of well-known secret names: api_key=…, "password": "…", x-api-key: ….
    pattern:
      /\b((?:x-)?api[_-]?key|access[_-]?token|refresh[_-]?token|client[_-]?secret|password|passwd)(["']?\s*[:=]\s*["']?)([^\s"'&,;)}\]]{4,})/gi,
    replace: (match, name = "", sep = "", value = "") =>
      value.startsWith(MASK) || value.endsWith(MASK) ? match : `${name}${sep}${MASK}`,
  },
];

/**
 * Every rule above needs one of these in the text, so a text without any (most replies, model
 * names, log lines) skips the rules: one scan instead of one per rule. Keep it in step with RULES.
 */
const MAY_MATCH_A_RULE =
  /-----BEGIN|:\/\/|sk-|gh[pousr]_|github_pat_|AKIA|ASIA|aws_secret_access_key|bearer|authorization|api[_-]?key|access[_-]?token|refresh[_-]?token|client[_-]?secret|passw(?:or)?d/i;

export function createRedactor(options: RedactorOptions): { redact: Redact } {
  let lastKeys: readonly string[] | undefined;
  let lastSignature = "";
  let knownPattern: RegExp | null = null;

  function knownKeysPattern(): RegExp | null {
    const keys = options.knownKeys();
    if (keys === lastKeys) return knownPattern;
    const usable = [...new Set(keys)].filter((k) => k.length >= MIN_KNOWN_KEY_LENGTH);
    // Longest first, so a key that contains another is masked whole.
    usable.sort((a, b) => b.length - a.length);
    const signature = usable.join("\u0000");
    lastKeys = keys;
    if (signature !== lastSignature) {
      lastSignature = signature;
      knownPattern = usable.length === 0 ? null : new RegExp(usable.map(escapeRegExp).join("|"), "g");
    }
    return knownPattern;
  }

  /** Whether `text` holds anything a rule or a known key could mask (one scan each, no settings read). */
  function mayNeedMasking(text: string, known: RegExp | null): boolean {
    if (MAY_MATCH_A_RULE.test(text)) return true;
    if (!known) return false;
    known.lastIndex = 0;
    const found = known.test(text);
    known.lastIndex = 0;
    return found;
  }

  function redact(text: string, redactOptions: RedactOptions = {}): string {
    if (typeof text !== "string" || text === "") return text;
    const known = knownKeysPattern();
    // Most text has nothing to mask: it is answered before asking whether masking is on, which
    // reads the settings (a stat of config.yaml) and sat on every plugin call's way back.
    if (!mayNeedMasking(text, known)) return text;
    if (!redactOptions.force && !options.enabled()) return text;
    let out = text;
    // Literal vault keys go first: a shape rule could mask part of one and leave a tail behind.
    if (known) out = out.replace(known, maskKeepingPrefix);
    if (!MAY_MATCH_A_RULE.test(out)) return out;
    for (const rule of RULES) {
      out = out.replace(rule.pattern, rule.replace as (substring: string, ...args: unknown[]) => string);
    }
    return out;
  }

  return { redact };
}

function escapeRegExp(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
