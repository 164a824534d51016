/** Applies `display.theme` to the page (`data-theme` on <html>); "system" follows the OS. */
import { useEffect } from "react";
import { useChatSettings } from "../stores/chat/chat-context.js";

export function ThemeSync() {
  const theme = useChatSettings((s) => (s.settings.kind === "ready" ? s.settings.data.theme : null));
  const loaded = useChatSettings((s) => s.settings.kind !== "loading");
  const load = useChatSettings((s) => s.load);
  useEffect(() => {
    if (!loaded) void load();
    // Load once at start; later changes arrive as settings.changed events.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    const root = document.documentElement;
    if (theme === "light" || theme === "dark") root.dataset.theme = theme;
    else delete root.dataset.theme;
  }, [theme]);
  return null;
}
