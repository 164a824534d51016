/** The 220px left column: brand, the Main navigation, Settings' sections, and the host's version. */
import { MessageSquare, Settings } from "lucide-react";
import type { ReactNode } from "react";
import { SessionSidebar } from "../chat/session-sidebar.js";
import { useHost, useNavigation } from "../stores/stores-context.js";
import { selectSettingsSection, type SettingsSection } from "../stores/navigation-store.js";

const settingsSections: ReadonlyArray<{ id: SettingsSection; label: string }> = [
  { id: "providers", label: "Providers" },
  { id: "models", label: "Models" },
  { id: "chat", label: "Chat" },
  { id: "memory", label: "Memory" },
  { id: "plugins", label: "Plugins" },
];

export function Sidebar() {
  const screen = useNavigation((s) => s.screen.name);
  const section = useNavigation(selectSettingsSection);
  const goToChat = useNavigation((s) => s.goToChat);
  const goToSettings = useNavigation((s) => s.goToSettings);

  return (
    <aside className="sidebar">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">
          H
        </span>
        <span className="brand-name">Hermes Desktop</span>
      </div>
      <nav aria-label="Main" className="nav">
        <NavItem icon={<MessageSquare size={16} />} current={screen === "chat"} onClick={goToChat}>
          Chat
        </NavItem>
        <NavItem icon={<Settings size={16} />} current={screen === "settings"} onClick={() => goToSettings()}>
          Settings
        </NavItem>
      </nav>
      {screen === "chat" ? <SessionSidebar /> : null}
      {section ? (
        <nav aria-label="Settings" className="nav nav-sub">
          {settingsSections.map((item) => (
            <NavItem key={item.id} current={section === item.id} onClick={() => goToSettings(item.id)}>
              {item.label}
            </NavItem>
          ))}
        </nav>
      ) : null}
      <HostFooter />
    </aside>
  );
}

function NavItem({
  icon,
  current,
  onClick,
  children,
}: {
  icon?: ReactNode;
  current: boolean;
  onClick(): void;
  children: string;
}) {
  return (
    <button type="button" className="nav-item" aria-current={current ? "page" : undefined} onClick={onClick}>
      {icon ? (
        <span className="nav-item-icon" aria-hidden="true">
          {icon}
        </span>
      ) : null}
      {children}
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
