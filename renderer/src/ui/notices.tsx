/** Host notices (e.g. a config.yaml moved aside) as dismissible alert banners. */
import { TriangleExclamationPoint } from "lucide-react";
import { useShallow } from "zustand/react/shallow";
import { useHost } from "../stores/stores-context.js";
import { noticeKey, selectVisibleNotices } from "../stores/host-store.js";
import { Button } from "./button.js";

export function Notices() {
  const notices = useHost(useShallow(selectVisibleNotices));
  const dismiss = useHost((s) => s.dismissNotice);
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
