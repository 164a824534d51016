// The desktop's updates (electron/updates.ts) against a stand-in for electron-updater's
// autoUpdater: the feed chosen at run time, a check at start and one a day, background download,
// and the "Restart to update" notice once an update is downloaded.
import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DAY_MS, feedFromEnv, startUpdates, type UpdateFeed } from "../../../electron/updates.js";
import { startTestHost } from "../support/test-host.js";

class FakeUpdater extends EventEmitter {
  autoDownload = false;
  autoInstallOnAppQuit = false;
  feeds: UpdateFeed[] = [];
  checks = 0;
  failNext = false;
  setFeedURL(feed: UpdateFeed) {
    this.feeds.push(feed);
  }
  checkForUpdates() {
    this.checks++;
    if (this.failNext) {
      this.failNext = false;
      return Promise.reject(new Error("net::ERR_INTERNET_DISCONNECTED"));
    }
    return Promise.resolve(null);
  }
}

afterEach(() => {
  vi.useRealTimers();
});

describe("the update feed named at run time", () => {
  it("keeps the build's feed when unset", () => {
    expect(feedFromEnv(undefined)).toEqual({ kind: "build" });
    expect(feedFromEnv("  ")).toEqual({ kind: "build" });
  });

  it("takes an https feed, GitHub releases, or off", () => {
    expect(feedFromEnv("https://updates.example.org/hermes/")).toEqual({
      kind: "feed",
      feed: { provider: "generic", url: "https://updates.example.org/hermes/" },
    });
    expect(feedFromEnv("github:hermes-app/desktop")).toEqual({
      kind: "feed",
      feed: { provider: "github", owner: "hermes-app", repo: "desktop" },
    });
    expect(feedFromEnv("off")).toEqual({ kind: "off" });
  });

  it("refuses a plain-http or malformed feed and says what to write instead", () => {
    for (const bad of ["http://updates.example.org/", "github:no-repo", "updates.example.org"]) {
      const choice = feedFromEnv(bad);
      expect(choice.kind).toBe("invalid");
      expect(choice.kind === "invalid" && choice.message).toContain(
        "https:// URL of an update feed, github:owner/repo, or off",
      );
    }
  });
});

describe("checking, downloading and telling", () => {
  it("checks at start and once a day, downloading in the background and installing on quit", async () => {
    vi.useFakeTimers();
    const updater = new FakeUpdater();
    const service = startUpdates({
      updater,
      feed: { kind: "build" },
      buildFeedPresent: true,
      onNoticesChanged: () => undefined,
      log: () => undefined,
    });
    expect(updater.checks).toBe(1);
    expect(updater.autoDownload).toBe(true);
    expect(updater.autoInstallOnAppQuit).toBe(true);
    expect(updater.feeds).toEqual([]);
    await vi.advanceTimersByTimeAsync(DAY_MS - 1);
    expect(updater.checks).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(updater.checks).toBe(2);
    service.stop();
    await vi.advanceTimersByTimeAsync(DAY_MS);
    expect(updater.checks).toBe(2);
  });

  it("uses the feed named at run time", () => {
    const updater = new FakeUpdater();
    const feed: UpdateFeed = { provider: "github", owner: "hermes-app", repo: "desktop" };
    startUpdates({
      updater,
      feed: { kind: "feed", feed },
      buildFeedPresent: false,
      onNoticesChanged: () => undefined,
      log: () => undefined,
    }).stop();
    expect(updater.feeds).toEqual([feed]);
  });

  it("shows 'Restart to update' once an update is downloaded, and tells the window", () => {
    const updater = new FakeUpdater();
    let changed = 0;
    const service = startUpdates({
      updater,
      feed: { kind: "build" },
      buildFeedPresent: true,
      onNoticesChanged: () => changed++,
      log: () => undefined,
    });
    expect(service.notices()).toEqual([]);
    updater.emit("update-downloaded", { version: "0.2.0" });
    expect(changed).toBe(1);
    expect(service.notices()).toEqual([
      { kind: "update_ready", message: "Hermes Desktop 0.2.0 is downloaded. Restart to update." },
    ]);
    service.stop();
  });

  it("logs a failed check (offline) without a notice, and checks again the next day", async () => {
    vi.useFakeTimers();
    const updater = new FakeUpdater();
    updater.failNext = true;
    const logged: Array<[string, Record<string, string>]> = [];
    const service = startUpdates({
      updater,
      feed: { kind: "build" },
      buildFeedPresent: true,
      onNoticesChanged: () => undefined,
      log: (event, fields) => logged.push([event, fields]),
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(logged).toEqual([["update_check_failed", { error: "Error: net::ERR_INTERNET_DISCONNECTED" }]]);
    expect(service.notices()).toEqual([]);
    await vi.advanceTimersByTimeAsync(DAY_MS);
    expect(updater.checks).toBe(2);
    service.stop();
  });

  it("with a bad feed setting checks nothing and shows a notice naming the variable", () => {
    const updater = new FakeUpdater();
    const service = startUpdates({
      updater,
      feed: feedFromEnv("ftp://x"),
      buildFeedPresent: true,
      onNoticesChanged: () => undefined,
      log: () => undefined,
    });
    expect(updater.checks).toBe(0);
    expect(service.notices()).toEqual([
      expect.objectContaining({
        kind: "update_feed_invalid",
        message: expect.stringContaining("HERMES_DESKTOP_UPDATE_FEED"),
      }),
    ]);
  });

  it("off, or a build without a feed and none named, checks nothing", () => {
    const updater = new FakeUpdater();
    const quiet = { onNoticesChanged: () => undefined, log: () => undefined };
    startUpdates({ updater, feed: { kind: "off" }, buildFeedPresent: true, ...quiet });
    startUpdates({ updater, feed: { kind: "build" }, buildFeedPresent: false, ...quiet });
    expect(updater.checks).toBe(0);
  });
});

describe("the notice in the app", () => {
  it("reaches host.info, which the renderer shows as a banner", async () => {
    const updater = new FakeUpdater();
    const service = startUpdates({
      updater,
      feed: { kind: "build" },
      buildFeedPresent: true,
      onNoticesChanged: () => undefined,
      log: () => undefined,
    });
    const t = await startTestHost({ host: { mode: "desktop", shellNotices: () => service.notices() } });
    try {
      updater.emit("update-downloaded", { version: "0.2.0" });
      const info = (await t.call("host.info")) as {
        result: { notices: Array<{ kind: string; message: string }> };
      };
      expect(info.result.notices).toContainEqual({
        kind: "update_ready",
        message: "Hermes Desktop 0.2.0 is downloaded. Restart to update.",
      });
    } finally {
      service.stop();
      await t.dispose();
    }
  });
});
