/**
 * Updates for the packaged desktop app (never web mode, never `npm start`): electron-updater checks
 * the feed at start and once a day, downloads in the background, installs when the app quits, and
 * a downloaded update shows as a `host.info` notice whose words end "Restart to update".
 *
 * The feed is the one the build wrote into app-update.yml (build/electron-builder.yml `publish`,
 * replaced by `npm run dist` from HERMES_UPDATE_URL or HERMES_UPDATE_GITHUB), unless
 * HERMES_DESKTOP_UPDATE_FEED names another at run time: an https URL (a generic feed),
 * `github:owner/repo` (GitHub releases), or `off`.
 */
import type { Notice } from "./host/rpc/methods/host-info.js";

export const DAY_MS = 24 * 60 * 60 * 1000;
export const UPDATE_FEED_ENV = "HERMES_DESKTOP_UPDATE_FEED";

export type UpdateFeed =
  { provider: "generic"; url: string } | { provider: "github"; owner: string; repo: string };

/** What HERMES_DESKTOP_UPDATE_FEED asks for: the build's feed, another feed, none, or a mistake. */
export type FeedChoice =
  | { kind: "build" }
  | { kind: "off" }
  | { kind: "feed"; feed: UpdateFeed }
  | { kind: "invalid"; message: string };

export function feedFromEnv(value: string | undefined): FeedChoice {
  const raw = value?.trim();
  if (!raw) return { kind: "build" };
  if (raw === "off") return { kind: "off" };
  const github = /^github:([\w.-]+)\/([\w.-]+)$/.exec(raw);
  if (github) return { kind: "feed", feed: { provider: "github", owner: github[1]!, repo: github[2]! } };
  const url = URL.canParse(raw) ? new URL(raw) : null;
  if (url?.protocol === "https:") return { kind: "feed", feed: { provider: "generic", url: url.toString() } };
  return {
    kind: "invalid",
    message: `${UPDATE_FEED_ENV} is "${raw}": use an https:// URL of an update feed, github:owner/repo, or off. Updates are off until it is fixed.`,
  };
}

/** The part of electron-updater's AppUpdater this uses. */
export interface Updater {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  setFeedURL(options: UpdateFeed): void;
  checkForUpdates(): Promise<unknown>;
  on(event: "update-downloaded", listener: (info: { version: string }) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
}

export interface UpdateOptions {
  updater: Updater;
  feed: FeedChoice;
  /** Whether the build wrote a feed (app-update.yml beside app.asar); a build without one never checks. */
  buildFeedPresent: boolean;
  /** The notices changed: the shell tells the renderer (`host.changed`). */
  onNoticesChanged(): void;
  log(event: string, fields: Record<string, string>): void;
  intervalMs?: number;
}

export interface UpdateService {
  /** For `host.info`: an update ready to install, or a feed setting to fix. */
  notices(): Notice[];
  stop(): void;
}

export function startUpdates(options: UpdateOptions): UpdateService {
  const { updater, feed } = options;
  if (feed.kind === "invalid") {
    options.log("update_feed_invalid", { message: feed.message });
    return { notices: () => [{ kind: "update_feed_invalid", message: feed.message }], stop: () => undefined };
  }
  if (feed.kind === "off" || (feed.kind === "build" && !options.buildFeedPresent)) {
    return { notices: () => [], stop: () => undefined };
  }
  if (feed.kind === "feed") updater.setFeedURL(feed.feed);
  updater.autoDownload = true;
  updater.autoInstallOnAppQuit = true;

  let ready: string | null = null;
  updater.on("update-downloaded", (info) => {
    ready = info.version;
    options.onNoticesChanged();
  });
  // Offline or no feed yet: the next daily check tries again; nothing to tell the person.
  updater.on("error", (error) => options.log("update_check_failed", { error: error.message }));
  const check = () =>
    void updater
      .checkForUpdates()
      .catch((error: unknown) => options.log("update_check_failed", { error: String(error) }));
  check();
  const timer = setInterval(check, options.intervalMs ?? DAY_MS);
  timer.unref();

  return {
    notices: () =>
      ready
        ? [{ kind: "update_ready", message: `Hermes Desktop ${ready} is downloaded. Restart to update.` }]
        : [],
    stop: () => clearInterval(timer),
  };
}
