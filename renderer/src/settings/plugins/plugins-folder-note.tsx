/**
 * Where to put user plugins, when the page can't simply open the folder: in web mode (a browser
 * can't open the host's file manager) and when the desktop host could not open it.
 */
import { Check, Copy, FolderOpen } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "../../ui/button.js";

export function PluginsFolderNote({ path, reason }: { path: string; reason: "web" | "not_opened" }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = () => {
    // The clipboard may be refused (permissions, an insecure context); the path stays selectable.
    void navigator.clipboard?.writeText(path).then(
      () => setCopied(true),
      () => undefined,
    );
  };

  return (
    <div className="plugins-folder card" role="group" aria-label="Plugins folder">
      <FolderOpen size={16} aria-hidden="true" className="plugins-folder-icon" />
      <div className="plugins-folder-text">
        <span className="plugins-folder-caption">
          {reason === "web"
            ? "Plugins folder on the machine running Hermes (copy it into your file manager):"
            : "Hermes couldn't open your file manager. The plugins folder is:"}
        </span>
        <code className="plugins-folder-path">{path}</code>
      </div>
      <Button
        size="sm"
        variant="ghost"
        icon={copied ? <Check size={14} aria-hidden="true" /> : <Copy size={14} aria-hidden="true" />}
        onClick={copy}
        aria-label={copied ? "Copied" : "Copy folder path"}
      >
        {copied ? "Copied" : "Copy"}
      </Button>
    </div>
  );
}
