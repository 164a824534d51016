/**
 * Where user plugins live: `<home>/plugins` (docs/contract.md §2), spelled with the host's own separator so
 * the path can be pasted into its file manager or shell.
 */
export function pluginsFolderPath(home: string): string {
  const separator = home.includes("\\") && !home.includes("/") ? "\\" : "/";
  const trimmed = home.length > 1 ? home.replace(/[\\/]+$/, "") : home;
  return trimmed.endsWith(separator) ? `${trimmed}plugins` : `${trimmed}${separator}plugins`;
}
