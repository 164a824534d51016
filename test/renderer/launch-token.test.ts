import { describe, expect, it } from "vitest";
import { takeLaunchToken, type LaunchTokenPlace } from "../../renderer/src/api/launch-token.js";

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

  it("takes the token out of the URL at once but writes storage when the scheduler says", () => {
    const tab = place("http://127.0.0.1:4000/?token=T0K3N");
    let pending: (() => void) | null = null;
    expect(takeLaunchToken(tab, (write) => void (pending = write))).toBe("T0K3N");
    expect(tab.urls).toEqual(["/"]);
    expect(tab.stored).toEqual({});
    (pending as (() => void) | null)?.();
    expect(Object.values(tab.stored)).toEqual(["T0K3N"]);
  });

  it("answers null in a tab that never had the token", () => {
    expect(takeLaunchToken(place("http://127.0.0.1:4000/"))).toBeNull();
  });
});
