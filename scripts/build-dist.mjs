#!/usr/bin/env node
// `npm run dist`'s last step: runs electron-builder with build/electron-builder.yml, signing and
// notarizing from the usual environment variables and skipping each with one clear line when they
// are absent, and pointing the update feed at HERMES_UPDATE_URL or HERMES_UPDATE_GITHUB.
// Extra arguments pass through (`npm run dist -- --linux deb`); `--dry-run` prints the plan only.
// Never publishes.
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The three ways electron-builder's @electron/notarize integration takes Apple credentials. */
const NOTARIZE_CREDENTIALS = [
  ["APPLE_API_KEY", "APPLE_API_KEY_ID", "APPLE_API_ISSUER"],
  ["APPLE_ID", "APPLE_APP_SPECIFIC_PASSWORD", "APPLE_TEAM_ID"],
  ["APPLE_KEYCHAIN", "APPLE_KEYCHAIN_PROFILE"],
];

/**
 * What to run, with which environment, and the lines that say so. Pure, so it is tested without
 * packaging. Throws with what to fix when a feed variable is malformed.
 */
export function distPlan(env, extraArgs = []) {
  const args = ["--config", "build/electron-builder.yml", "-c.npmRebuild=false", "--publish", "never"];
  const childEnv = { ...env };
  const lines = [];

  const certificate = env.CSC_LINK || env.WIN_CSC_LINK;
  if (certificate) {
    lines.push(
      `Code signing: with the certificate in ${env.CSC_LINK ? "CSC_LINK" : "WIN_CSC_LINK"}${env.CSC_KEY_PASSWORD || env.WIN_CSC_KEY_PASSWORD ? "" : " (no CSC_KEY_PASSWORD set: fine only for a certificate without one)"}.`,
    );
  } else {
    // Without it electron-builder would look for any identity in the keychain; be explicit instead.
    childEnv.CSC_IDENTITY_AUTO_DISCOVERY = "false";
    lines.push("Code signing: skipped, CSC_LINK is not set (the installers are unsigned).");
  }

  const notarizeWith = NOTARIZE_CREDENTIALS.find((names) => names.every((name) => env[name]));
  if (notarizeWith) {
    args.push("-c.mac.notarize=true");
    lines.push(`macOS notarization: with ${notarizeWith.join(", ")}.`);
  } else {
    args.push("-c.mac.notarize=false");
    lines.push(
      "macOS notarization: skipped, set APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD and APPLE_TEAM_ID (or APPLE_API_KEY, APPLE_API_KEY_ID, APPLE_API_ISSUER).",
    );
  }

  if (env.HERMES_UPDATE_URL && env.HERMES_UPDATE_GITHUB) {
    throw new Error("Set HERMES_UPDATE_URL or HERMES_UPDATE_GITHUB, not both.");
  }
  if (env.HERMES_UPDATE_URL) {
    if (!URL.canParse(env.HERMES_UPDATE_URL) || new URL(env.HERMES_UPDATE_URL).protocol !== "https:") {
      throw new Error(
        `HERMES_UPDATE_URL is "${env.HERMES_UPDATE_URL}": it must be an https:// URL of the update feed.`,
      );
    }
    args.push("-c.publish.provider=generic", `-c.publish.url=${env.HERMES_UPDATE_URL}`);
    lines.push(`Updates: the generic feed at ${env.HERMES_UPDATE_URL}.`);
  } else if (env.HERMES_UPDATE_GITHUB) {
    const match = /^([\w.-]+)\/([\w.-]+)$/.exec(env.HERMES_UPDATE_GITHUB);
    if (!match) throw new Error(`HERMES_UPDATE_GITHUB is "${env.HERMES_UPDATE_GITHUB}": write owner/repo.`);
    args.push("-c.publish.provider=github", `-c.publish.owner=${match[1]}`, `-c.publish.repo=${match[2]}`);
    lines.push(`Updates: GitHub releases of ${match[1]}/${match[2]}.`);
  } else {
    lines.push(
      "Updates: no feed (set HERMES_UPDATE_URL or HERMES_UPDATE_GITHUB); the app will not update itself.",
    );
  }

  return {
    command: join(root, "node_modules", ".bin", "electron-builder"),
    args: [...args, ...extraArgs],
    env: childEnv,
    lines,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const dryRun = process.argv.includes("--dry-run");
  let plan;
  try {
    plan = distPlan(
      process.env,
      process.argv.slice(2).filter((arg) => arg !== "--dry-run"),
    );
  } catch (err) {
    console.error(`npm run dist: ${err.message}`);
    process.exit(2);
  }
  for (const line of plan.lines) console.log(line);
  if (dryRun) {
    // What would run, for a look before a long build (and for the tests).
    console.log(`electron-builder ${plan.args.join(" ")}`);
    console.log(`CSC_IDENTITY_AUTO_DISCOVERY=${plan.env.CSC_IDENTITY_AUTO_DISCOVERY ?? ""}`);
    process.exit(0);
  }
  const result = spawnSync(plan.command, plan.args, { cwd: root, env: plan.env, stdio: "inherit" });
  process.exit(result.status ?? 1);
}
