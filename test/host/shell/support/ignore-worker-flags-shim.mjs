// Loaded with --import into the stand-in for Electron's utility process: a runtime that ignores
// the permission flags given in a worker's execArgv, as Electron ignores them on the process.
import { createRequire, syncBuiltinESMExports } from "node:module";

const threads = createRequire(import.meta.url)("node:worker_threads");
const { Worker } = threads;
threads.Worker = class extends Worker {
  constructor(file, options = {}) {
    super(file, { ...options, execArgv: [] });
  }
};
syncBuiltinESMExports();
