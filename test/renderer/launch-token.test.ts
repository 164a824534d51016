import { describe, expect, it } from "vitest";
import { takeLaunchToken, writeAfter, type LaunchTokenPlace } from "../../renderer/src/api/launch-token.js";

function place(href: string, stored: Record<string, string> = {}) {
  const urls: string[] = [];
  const target: LaunchTokenPlace & { urls: string[]; stored: Record<string, string> } = {
    urls,
    stored,
    location: { href },
    history: {
      state: null,
      replaceState: (_s: unknown, _t: string, url?: string | URL | null) => void urls.push(String(url)),
    },
    sessionStorage: {
      getItem: (key: string) => stored[key] ?? null,
      setItem: (key: string, value: string) => void (stored[key] = value),
    },
  };
  return target;
}

describe("takeLaunchToken", () => {
  it("takes ?token= out of the address bar and keeps it in session storage", () => {
    const tab = place("http://127.0.0.1:4000/settings?tab=keys&token=T0K3N#top");
    expect(takeLaunchToken(tab)).toBe("T0K3N");
    expect(tab.urls).toEqual(["/settings?tab=keys#top"]);
    expect(Object.values(tab.stored)).toEqual(["T0K3N"]);
  });

  it("finds the token again after a reload, without touching the URL", () => {
    const first = place("http://127.0.0.1:4000/?token=T0K3N");
    takeLaunchToken(first);
    const reloaded = place("http://127.0.0.1:4000/", first.stored);
    expect(takeLaunchToken(reloaded)).toBe("T0K3N");
    expect(reloaded.urls).toEqual([]);
  });

  it("answers the token at once but leaves the address bar and storage until the scheduler says", () => {
    const tab = place("http://127.0.0.1:4000/?token=T0K3N");
    let pending: (() => void) | null = null;
    expect(takeLaunchToken(tab, (write) => void (pending = write))).toBe("T0K3N");
    expect(tab.urls).toEqual([]);
    expect(tab.stored).toEqual({});
    (pending as (() => void) | null)?.();
    expect(tab.urls).toEqual(["/"]);
    expect(Object.values(tab.stored)).toEqual(["T0K3N"]);
  });

  it("keeps the fragment the app moved to before the write (its route), not the one it loaded with", () => {
    const tab = place("http://127.0.0.1:4000/?token=T0K3N#/chat");
    let pending: (() => void) | null = null;
    takeLaunchToken(tab, (write) => void (pending = write));
    tab.location.href = "http://127.0.0.1:4000/?token=T0K3N#/settings/plugins";
    (pending as (() => void) | null)?.();
    expect(tab.urls).toEqual(["/#/settings/plugins"]);
  });

  it("answers null in a tab that never had the token", () => {
    expect(takeLaunchToken(place("http://127.0.0.1:4000/"))).toBeNull();
  });

  it("writes storage once the page has painted", async () => {
    const tab = place("http://127.0.0.1:4000/?token=T0K3N");
    let painted: () => void = () => undefined;
    const paint = new Promise<void>((resolve) => (painted = resolve));
    takeLaunchToken(tab, writeAfter(paint, new EventTarget()));
    await Promise.resolve();
    expect(tab.stored).toEqual({});
    painted();
    await paint;
    await Promise.resolve();
    expect(Object.values(tab.stored)).toEqual(["T0K3N"]);
  });

  it("writes storage as the page goes away if that comes first (a quick reload), and only once", async () => {
    const tab = place("http://127.0.0.1:4000/?token=T0K3N");
    const page = new EventTarget();
    let painted: () => void = () => undefined;
    const paint = new Promise<void>((resolve) => (painted = resolve));
    const writes: string[] = [];
    takeLaunchToken(tab, (write) =>
      writeAfter(
        paint,
        page,
      )(() => {
        write();
        writes.push("write");
      }),
    );
    page.dispatchEvent(new Event("pagehide"));
    expect(Object.values(tab.stored)).toEqual(["T0K3N"]);
    painted();
    await paint;
    await Promise.resolve();
    expect(writes).toEqual(["write"]);
  });
});
