/** `npm run dist`'s signing, notarization and update-feed plan (scripts/build-dist.mjs --dry-run). */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const SIGNING = [
  "CSC_LINK",
  "CSC_KEY_PASSWORD",
  "WIN_CSC_LINK",
  "WIN_CSC_KEY_PASSWORD",
  "CSC_IDENTITY_AUTO_DISCOVERY",
];
const APPLE = [
  "APPLE_ID",
  "APPLE_APP_SPECIFIC_PASSWORD",
  "APPLE_TEAM_ID",
  "APPLE_API_KEY",
  "APPLE_API_KEY_ID",
];
const FEEDS = [
  "HERMES_UPDATE_URL",
  "HERMES_UPDATE_GITHUB",
  "APPLE_API_ISSUER",
  "APPLE_KEYCHAIN",
  "APPLE_KEYCHAIN_PROFILE",
];

function plan(env: Record<string, string>, ...args: string[]) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => ![...SIGNING, ...APPLE, ...FEEDS].includes(name)),
  );
  const result = spawnSync(
    process.execPath,
    [join(process.cwd(), "scripts", "build-dist.mjs"), "--dry-run", ...args],
    {
      encoding: "utf8",
      env: { ...clean, ...env },
    },
  );
  return { status: result.status, lines: result.stdout.trim().split("\n"), stderr: result.stderr };
}

describe("npm run dist", () => {
  it("without credentials: one clear line each for signing and notarization, and an unsigned build", () => {
    const { status, lines } = plan({});
    expect(status).toBe(0);
    expect(lines).toContain("Code signing: skipped, CSC_LINK is not set (the installers are unsigned).");
    expect(lines.filter((line) => line.startsWith("macOS notarization: skipped,"))).toHaveLength(1);
    expect(lines).toContain("CSC_IDENTITY_AUTO_DISCOVERY=false");
    expect(lines.find((line) => line.startsWith("electron-builder "))).toContain("-c.mac.notarize=false");
    expect(lines.find((line) => line.startsWith("electron-builder "))).toContain("--publish never");
  });

  it("signs with CSC_LINK and notarizes with an Apple ID, never printing a secret", () => {
    const secret = "p4ss-w0rd-never-printed";
    const { status, lines } = plan(
      {
        CSC_LINK: "/secure/cert.p12",
        CSC_KEY_PASSWORD: secret,
        APPLE_ID: "dev@example.org",
        APPLE_APP_SPECIFIC_PASSWORD: secret,
        APPLE_TEAM_ID: "TEAM123",
      },
      "--linux",
      "deb",
    );
    expect(status).toBe(0);
    expect(lines).toContain("Code signing: with the certificate in CSC_LINK.");
    expect(lines).toContain("macOS notarization: with APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD, APPLE_TEAM_ID.");
    expect(lines).toContain("CSC_IDENTITY_AUTO_DISCOVERY=");
    const command = lines.find((line) => line.startsWith("electron-builder "))!;
    expect(command).toContain("-c.mac.notarize=true");
    expect(command.endsWith("--linux deb")).toBe(true);
    expect(lines.join("\n")).not.toContain(secret);
  });

  it("points the update feed at a generic URL or GitHub releases", () => {
    const generic = plan({ HERMES_UPDATE_URL: "https://updates.example.org/hermes" });
    expect(generic.lines).toContain("Updates: the generic feed at https://updates.example.org/hermes.");
    expect(generic.lines.find((line) => line.startsWith("electron-builder "))).toContain(
      "-c.publish.provider=generic -c.publish.url=https://updates.example.org/hermes",
    );
    const github = plan({ HERMES_UPDATE_GITHUB: "hermes-app/desktop" });
    expect(github.lines.find((line) => line.startsWith("electron-builder "))).toContain(
      "-c.publish.provider=github -c.publish.owner=hermes-app -c.publish.repo=desktop",
    );
    expect(plan({}).lines).toContain(
      "Updates: no feed (set HERMES_UPDATE_URL or HERMES_UPDATE_GITHUB); the app will not update itself.",
    );
  });

  it("refuses a malformed feed before building, saying what to write", () => {
    const http = plan({ HERMES_UPDATE_URL: "http://updates.example.org" });
    expect(http.status).toBe(2);
    expect(http.stderr).toContain("it must be an https:// URL of the update feed");
    const github = plan({ HERMES_UPDATE_GITHUB: "desktop" });
    expect(github.status).toBe(2);
    expect(github.stderr).toContain("write owner/repo");
  });
});
