/**
 * The 220px left column: brand, the Main navigation, Settings' sections, and the host's version.
 * It collapses to a rail of icons (Collapse sidebar / Expand sidebar), and starts so under 900 px.
 */
import { MessageSquare, PanelLeftClose, PanelLeftOpen, Plus, Settings } from "lucide-react";
import { useState, type ReactNode } from "react";
import { SessionSidebar } from "../chat/sidebar/session-sidebar.js";
import { useSessions } from "../stores/chat/chat-context.js";
import { PluginPagesNav } from "../plugins/plugin-pages-nav.js";
import { useHost, useNavigation } from "../stores/stores-context.js";
import { selectSettingsSection, type SettingsSection } from "../stores/navigation-store.js";
import { IconButton } from "../ui/icon-button.js";

const settingsSections: ReadonlyArray<{ id: SettingsSection; label: string }> = [
  { id: "general", label: "General" },
  { id: "providers", label: "Providers" },
  { id: "models", label: "Models" },
  { id: "chat", label: "Chat" },
  { id: "memory", label: "Memory" },
  { id: "appearance", label: "Appearance" },
  { id: "plugins", label: "Plugins" },
  { id: "mcp", label: "MCP" },
];

/** Below this width the sidebar starts collapsed, leaving the room to the conversation. */
const narrowQuery = "(max-width: 899px)";

export function Sidebar() {
  const screen = useNavigation((s) => s.screen.name);
  const section = useNavigation(selectSettingsSection);
  const goToChat = useNavigation((s) => s.goToChat);
  const goToSettings = useNavigation((s) => s.goToSettings);
  const [collapsed, setCollapsed] = useState(() => window.matchMedia(narrowQuery).matches);
  const selectSession = useSessions((s) => s.select);
  const setQuery = useSessions((s) => s.setQuery);
  // The rail's New chat: the same as the full sidebar's, from any screen.
  const startNewChat = () => {
    goToChat();
    setQuery("");
    selectSession(null);
  };

  if (collapsed) {
    return (
      <aside className="sidebar sidebar-collapsed">
        <IconButton
          className="sidebar-toggle"
          label="Expand sidebar"
          icon={<PanelLeftOpen size={16} aria-hidden="true" />}
          aria-expanded={false}
          onClick={() => setCollapsed(false)}
        />
        <IconButton
          className="sidebar-new-chat"
          label="New chat"
          icon={<Plus size={16} aria-hidden="true" />}
          onClick={startNewChat}
        />
        <nav aria-label="Main" className="nav">
          <NavItem icon={<MessageSquare size={16} />} current={screen === "chat"} onClick={goToChat} iconOnly>
            Chat
          </NavItem>
          <NavItem
            icon={<Settings size={16} />}
            current={screen === "settings"}
            onClick={() => goToSettings()}
            iconOnly
          >
            Settings
          </NavItem>
        </nav>
        <PluginPagesNav iconOnly />
      </aside>
    );
  }

  return (
    <aside className="sidebar">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">
          H
        </span>
        <span className="brand-name">Hermes Desktop</span>
        <IconButton
          className="sidebar-toggle"
          label="Collapse sidebar"
          icon={<PanelLeftClose size={16} aria-hidden="true" />}
          aria-expanded={true}
          onClick={() => setCollapsed(true)}
        />
      </div>
      <nav aria-label="Main" className="nav">
        <NavItem icon={<MessageSquare size={16} />} current={screen === "chat"} onClick={goToChat}>
          Chat
        </NavItem>
        <NavItem icon={<Settings size={16} />} current={screen === "settings"} onClick={() => goToSettings()}>
          Settings
        </NavItem>
      </nav>
      {/* Settings' sections right under Settings; plugin pages in a group of their own after them. */}
      {section ? (
        <nav aria-label="Settings" className="nav nav-sub">
          {settingsSections.map((item) => (
            <NavItem key={item.id} current={section === item.id} onClick={() => goToSettings(item.id)}>
              {item.label}
            </NavItem>
          ))}
        </nav>
      ) : null}
      <PluginPagesNav />
      {screen === "chat" ? <SessionSidebar /> : null}
      <HostFooter />
    </aside>
  );
}

function NavItem({
  icon,
  current,
  onClick,
  children,
  iconOnly = false,
}: {
  icon?: ReactNode;
  current: boolean;
  onClick(): void;
  children: string;
  /** The collapsed sidebar shows the icon; the label stays the button's name. */
  iconOnly?: boolean;
}) {
  return (
    <button
      type="button"
      className="nav-item"
      aria-current={current ? "page" : undefined}
      onClick={onClick}
      title={iconOnly ? children : undefined}
    >
      {icon ? (
        <span className="nav-item-icon" aria-hidden="true">
          {icon}
        </span>
      ) : null}
      {iconOnly ? <span className="visually-hidden">{children}</span> : children}
    </button>
  );
}

function HostFooter() {
  const info = useHost((s) => s.info);
  const connection = useHost((s) => s.connection);
  if (info.kind !== "ready") return <div className="sidebar-footer" />;
  return (
    <div className="sidebar-footer">
      <span className={`status-dot status-${connection}`} aria-hidden="true" />
      <span>
        v{info.data.version} · {info.data.mode === "web" ? "Web" : "Desktop"}
      </span>
    </div>
  );
}
