import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    environment: "node",
    include: ["test/host/**/*.test.ts", "test/renderer/**/*.test.{ts,tsx}", "test/fixtures/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
    // electron-store imports `electron` itself; inlined, the shell tests' mock of it applies.
    server: { deps: { inline: ["electron-store"] } },
  },
});
