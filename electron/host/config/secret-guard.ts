import type { DocumentIssue } from "./config-errors.js";

// Normalised (lowercase, no `_`/`-`) property names that would hold a credential.
const SECRET_PROPERTY_NAMES = new Set(["apikey", "key"]);

function isSecretName(name: string): boolean {
  return SECRET_PROPERTY_NAMES.has(name.toLowerCase().replace(/[_-]/g, ""));
}

function holdsValue(value: unknown): boolean {
  return value !== null && value !== undefined && value !== "";
}

/**
 * Finds credentials under `providers.<id>` (any depth). Keys go to the vault (docs/contract.md §4), never
 * into config.yaml, so such a property is refused with a message that says where keys belong.
 */
export function findSecretsUnderProviders(doc: Record<string, unknown>): DocumentIssue[] {
  const providers = doc["providers"];
  if (!isObject(providers)) return [];
  const issues: DocumentIssue[] = [];
  const walk = (value: unknown, path: string[]): void => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, [...path, String(index)]));
      return;
    }
    if (!isObject(value)) return;
    for (const [name, child] of Object.entries(value)) {
      const childPath = [...path, name];
      if (isSecretName(name) && holdsValue(child)) {
        const key = childPath.join(".");
        issues.push({
          key,
          repairPath: childPath,
          message:
            `${key}: API keys are never stored in config.yaml. Save the key with the provider ` +
            `(it goes to the OS keychain) or name an environment variable in key_env.`,
        });
      } else {
        walk(child, childPath);
      }
    }
  };
  for (const [id, provider] of Object.entries(providers)) walk(provider, ["providers", id]);
  return issues;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
