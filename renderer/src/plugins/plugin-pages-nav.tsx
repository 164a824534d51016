/**
 * The plugin pages in the app's navigation (docs/contract.md §8): each loaded plugin's pages, grouped under
 * the plugin's name. The collapsed rail shows one icon per page, named "<plugin>: <page>".
 */
import { Puzzle } from "lucide-react";
import { useMemo } from "react";
import { selectPluginPage } from "../stores/navigation-store.js";
import { useNavigation, usePlugins } from "../stores/stores-context.js";

interface PageLink {
  pluginId: string;
  pluginName: string;
  pageId: string;
  title: string;
}

function usePageLinks(): PageLink[] {
  const plugins = usePlugins((s) => s.plugins);
  return useMemo(
    () =>
      plugins.kind === "ready"
        ? plugins.data
            .filter((plugin) => plugin.status === "loaded")
            .flatMap((plugin) =>
              plugin.pages.map((page) => ({
                pluginId: plugin.id,
                pluginName: plugin.name,
                pageId: page.id,
                title: page.title,
              })),
            )
        : [],
    [plugins],
  );
}

export function PluginPagesNav({ iconOnly = false }: { iconOnly?: boolean }) {
  const links = usePageLinks();
  const current = useNavigation(selectPluginPage);
  const goToPluginPage = useNavigation((s) => s.goToPluginPage);
  if (links.length === 0) return null;
  const groups = [...new Set(links.map((link) => link.pluginId))];
  return (
    <nav aria-label="Plugin pages" className="nav nav-plugin-pages">
      {groups.map((pluginId) => {
        const pages = links.filter((link) => link.pluginId === pluginId);
        const name = pages[0]!.pluginName;
        return (
          <div key={pluginId} role="group" aria-label={name} className="nav-group">
            {iconOnly ? null : <div className="nav-group-label">{name}</div>}
            {pages.map((link) => {
              const label = iconOnly ? `${name}: ${link.title}` : link.title;
              const isCurrent = current?.pluginId === pluginId && current.pageId === link.pageId;
              return (
                <button
                  key={link.pageId}
                  type="button"
                  className="nav-item"
                  aria-current={isCurrent ? "page" : undefined}
                  title={iconOnly ? label : undefined}
                  onClick={() => goToPluginPage(pluginId, link.pageId)}
                >
                  <span className="nav-item-icon" aria-hidden="true">
                    <Puzzle size={16} />
                  </span>
                  {iconOnly ? <span className="visually-hidden">{label}</span> : label}
                </button>
              );
            })}
          </div>
        );
      })}
    </nav>
  );
}
