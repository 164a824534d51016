/** Whether a base URL points at this machine or a private network (docs/contract.md §6.4's stale-pin rule). */
import { isIP } from "node:net";

const ipv4Private = (ip: string): boolean => {
  const [a = -1, b = -1] = ip.split(".").map(Number);
  return (
    a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || ip === "0.0.0.0"
  );
};

const ipv6Private = (ip: string): boolean => {
  const lower = ip.toLowerCase();
  if (lower === "::1") return true;
  if (lower.startsWith("::ffff:")) return ipv4Private(lower.slice(7));
  // fc00::/7 unique local addresses.
  return /^f[cd][0-9a-f]{0,2}:/.test(lower);
};

export function isPrivateEndpoint(baseUrl: string | undefined): boolean {
  if (!baseUrl) return false;
  let host: string;
  try {
    host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return false;
  }
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local")) return true;
  const family = isIP(host);
  if (family === 4) return ipv4Private(host);
  if (family === 6) return ipv6Private(host);
  return false;
}
