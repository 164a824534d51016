/** A Hermes home for a test: a fixture folder of test/fixtures/hermes copied into a temp dir (`env` → `.env`). */
import { cpSync, existsSync, renameSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempHome } from "../../support/temp-home.js";

const fixtures = fileURLToPath(new URL("../../../fixtures/hermes/", import.meta.url));

export function hermesHome(fixture?: "openrouter" | "local-and-plugins"): { dir: string; cleanup(): void } {
  const home = tempHome("hermes-agent-home-");
  if (fixture) {
    cpSync(join(fixtures, fixture), home.dir, { recursive: true });
    if (existsSync(join(home.dir, "env"))) renameSync(join(home.dir, "env"), join(home.dir, ".env"));
  }
  return home;
}
