import react from "@vitejs/plugin-react";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  // Relative asset URLs: the same build loads from file:// in Electron and from the web server.
  base: "./",
  plugins: [react()],
  build: {
    outDir: join(here, "..", "out", "renderer"),
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 2000,
  },
});
