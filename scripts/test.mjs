#!/usr/bin/env node
// `npm test`: type-check, lint (with the layering rules), build, vitest, Playwright e2e in a real Chromium and the
// packaging smoke; ends with one line `N passed, N failed` over every suite.
// Where no session bus answers, it re-runs itself under dbus-run-session with a throwaway,
// unlocked gnome-keyring so the keychain tests run against a real Secret Service.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { TEST_NODE_VERSION, testNodeBinary } from "./fetch-test-node.mjs";
import { findChromium } from "./find-chromium.mjs";
import { ensureNativeAbi } from "./native-abi.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const which = (cmd) =>
  spawnSync("sh", ["-c", `command -v ${cmd}`], { encoding: "utf8" }).stdout.trim() || null;
const missing = (what, pkg) => {
  console.error(`npm test needs ${what}: install it (Debian/Ubuntu: sudo apt-get install ${pkg}).`);
  process.exit(1);
};

const chromium = findChromium();
if (!chromium) missing("a Chromium for the end-to-end tests", "chromium");
// The providers' transport is tested against an https endpoint with a certificate made on the spot.
if (!which("openssl")) missing("openssl for the transport's TLS test", "openssl");
// keytar is optional for the app (it runs without a keychain) but the keychain tests need it.
if (!existsSync(join(root, "node_modules", "keytar", "build", "Release", "keytar.node"))) {
  console.error(
    "npm test needs the keychain binding (keytar), which was not built: install libsecret " +
      "(Debian/Ubuntu: sudo apt-get install libsecret-1-dev; Fedora: sudo dnf install libsecret-devel), " +
      "then run npm rebuild keytar.",
  );
  process.exit(1);
}

if (!process.env.DBUS_SESSION_BUS_ADDRESS && !process.env.HERMES_TEST_KEYRING) {
  if (!which("dbus-run-session")) missing("a D-Bus session for the keychain tests", "dbus dbus-x11");
  if (!which("gnome-keyring-daemon")) missing("a Secret Service for the keychain tests", "gnome-keyring");
  const keyring = mkdtempSync(join(tmpdir(), "hermes-keyring-"));
  mkdirSync(join(keyring, "run"), { recursive: true, mode: 0o700 });
  const inner = `echo -n hermes-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; exec node "${join(root, "scripts", "test.mjs")}" "$@"`;
  const result = spawnSync("dbus-run-session", ["--", "sh", "-c", inner, "sh", ...process.argv.slice(2)], {
    stdio: "inherit",
    env: {
      ...process.env,
      HERMES_TEST_KEYRING: keyring,
      XDG_DATA_HOME: join(keyring, "data"),
      XDG_RUNTIME_DIR: join(keyring, "run"),
    },
  });
  rmSync(keyring, { recursive: true, force: true });
  process.exit(result.status ?? 1);
}

ensureNativeAbi("node");
const bin = (name) => join(root, "node_modules", ".bin", name);
const totals = { passed: 0, failed: 0, skipped: 0 };
const only = process.argv.slice(2);
const wanted = (name) => only.length === 0 || only.includes(name);
// The fresh-install smoke spends most of its time compiling native modules in a copy of the repo;
// it runs beside the other steps and is collected at the end.
const freshInstall = wanted("fresh-install") ? startFreshInstallSmoke() : null;

function step(name, cmd, args, env = {}) {
  console.log(`\n── ${name} ──`);
  const result = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  return result.status === 0;
}

function check(name, cmd, args) {
  if (!wanted(name)) return;
  if (step(name, cmd, args)) totals.passed += 1;
  else {
    totals.failed += 1;
    console.log(`✗ ${name} failed`);
  }
}

check("typecheck", bin("tsc"), ["-p", "tsconfig.json", "--noEmit"]);
check("typecheck-renderer", bin("tsc"), ["-p", "renderer/tsconfig.json", "--noEmit"]);
check("typecheck-renderer-tests", bin("tsc"), ["-p", "test/renderer/tsconfig.json", "--noEmit"]);
check("lint", bin("eslint"), ["--max-warnings=0", "."]);
check("format", bin("prettier"), ["--check", "--log-level=warn", "."]);

const built = step("build", process.execPath, [join(root, "scripts", "build.mjs")]);
if (!built) totals.failed += 1;

if (wanted("vitest")) {
  const report = join(root, "test-results", "vitest.json");
  rmSync(report, { force: true });
  step("vitest", bin("vitest"), [
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
  ]);
  if (existsSync(report)) {
    const r = JSON.parse(readFileSync(report, "utf8"));
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests + (r.numFailedTestSuites ?? 0) * (r.numTotalTests === 0 ? 1 : 0);
    totals.skipped += r.numPendingTests + r.numTodoTests;
    if (!r.success && r.numFailedTests === 0) totals.failed += 1;
  } else totals.failed += 1;
}

// The plugin permission probes again with the plugin host in the Node the desktop ships (24), whose
// permission model differs from this Node's; `node scripts/fetch-test-node.mjs` fetches it.
if (wanted("vitest-node24")) {
  const node24 = testNodeBinary();
  if (!node24) {
    console.log(
      `\n── plugin permission probes under Node ${TEST_NODE_VERSION}: skipped (run node scripts/fetch-test-node.mjs) ──`,
    );
    totals.skipped += 1;
  } else {
    const report = join(root, "test-results", "vitest-node24.json");
    rmSync(report, { force: true });
    step(
      `plugin permission probes under Node ${TEST_NODE_VERSION}`,
      bin("vitest"),
      [
        "run",
        "test/host/plugins/permissions.test.ts",
        "--reporter=default",
        "--reporter=json",
        `--outputFile.json=${report}`,
      ],
      { HERMES_TEST_PLUGIN_NODE: node24 },
    );
    if (existsSync(report)) {
      const r = JSON.parse(readFileSync(report, "utf8"));
      totals.passed += r.numPassedTests;
      totals.failed += r.numFailedTests + (r.success || r.numFailedTests > 0 ? 0 : 1);
    } else totals.failed += 1;
  }
}

if (wanted("e2e") && built) {
  const report = join(root, "test-results", "e2e.json");
  rmSync(report, { force: true });
  step("e2e (Playwright, Chromium)", bin("playwright"), ["test", "-c", "test/e2e/playwright.config.ts"], {
    CHROMIUM_PATH: chromium,
    PLAYWRIGHT_JSON_OUTPUT_NAME: report,
  });
  if (existsSync(report)) {
    const s = JSON.parse(readFileSync(report, "utf8")).stats;
    totals.passed += s.expected + (s.flaky ?? 0);
    totals.failed += s.unexpected;
    totals.skipped += s.skipped;
  } else totals.failed += 1;
}

if (wanted("packaging") && built) {
  if (step("packaging smoke", process.execPath, [join(root, "scripts", "packaging-smoke.mjs")]))
    totals.passed += 1;
  else totals.failed += 1;
}

if (freshInstall) {
  console.log("\n── fresh install without libsecret ──");
  const { status, output } = await freshInstall;
  process.stdout.write(output);
  if (status === 0) totals.passed += 1;
  else totals.failed += 1;
}

function startFreshInstallSmoke() {
  const child = spawn(process.execPath, [join(root, "scripts", "fresh-install-smoke.mjs")], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  return new Promise((resolve) => child.on("close", (status) => resolve({ status, output })));
}

console.log(
  `\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`,
);
process.exit(totals.failed === 0 ? 0 : 1);
