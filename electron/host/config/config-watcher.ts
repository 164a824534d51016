/**
 * Watches `config.yaml` for hand edits while the app runs. The folder is watched, not the file:
 * atomic saves replace the file's inode. Editors save in bursts (truncate, write, rename), so
 * events are debounced into one call per burst; where fs.watch fails, polling takes over.
 */
import fs from "node:fs";
import path from "node:path";

const WATCH_DEBOUNCE_MS = 40;

/**
 * Calls `onChange` after each burst of changes to `file`, and `onStir` at once on each event of
 * the burst; returns the function that stops it.
 */
export function watchConfigFile(
  file: string,
  onChange: () => void,
  onStir: () => void = () => undefined,
): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let watcher: fs.FSWatcher | null = null;
  const onEvent = () => {
    if (stopped) return;
    onStir();
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      if (!stopped) onChange();
    }, WATCH_DEBOUNCE_MS);
    timer.unref();
  };
  const poll = () => fs.watchFile(file, { persistent: false, interval: 1000 }, onEvent);
  try {
    watcher = fs.watch(path.dirname(file), { persistent: false }, (_event, name) => {
      if (name === null || name === path.basename(file)) onEvent();
    });
    watcher.on("error", () => {
      watcher?.close();
      watcher = null;
      if (!stopped) poll();
    });
  } catch {
    poll();
  }
  return () => {
    stopped = true;
    watcher?.close();
    watcher = null;
    fs.unwatchFile(file);
    if (timer) clearTimeout(timer);
  };
}
