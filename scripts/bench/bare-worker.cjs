// A bare worker for plugin_load's floor: nothing but saying it is up. CommonJS, as the plugin
// host's own worker entry is (plugin-worker.cjs), so both start the same way.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS entry has no import
require("node:worker_threads").parentPort.postMessage("ready");
