/** Host notices (e.g. a config.yaml moved aside) as dismissible alert banners. */
import { TriangleExclamationPoint } from "lucide-react";
import { useShallow } from "zustand/react/shallow";
import { useHost, useNavigation } from "../stores/stores-context.js";
import { KEYCHAIN_NOTICE_KIND, noticeKey, selectVisibleNotices } from "../stores/host-store.js";
import { selectSettingsSection } from "../stores/navigation-store.js";
import { Button } from "../ui/button.js";

export function Notices() {
  const visible = useHost(useShallow(selectVisibleNotices));
  const dismiss = useHost((s) => s.dismissNotice);
  // Settings → Providers says the keychain notice in place, beside the key field.
  const onProviders = useNavigation(selectSettingsSection) === "providers";
  const notices = onProviders ? visible.filter((notice) => notice.kind !== KEYCHAIN_NOTICE_KIND) : visible;
  if (notices.length === 0) return null;
  return (
    <div className="notices">
      {notices.map((notice) => (
        <div key={noticeKey(notice)} role="alert" className="notice">
          <TriangleExclamationPoint size={16} aria-hidden="true" className="notice-icon" />
          <p className="notice-message">{notice.message}</p>
          <Button size="sm" variant="ghost" onClick={() => dismiss(notice)}>
            Dismiss
          </Button>
        </div>
      ))}
    </div>
  );
}
