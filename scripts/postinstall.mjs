#!/usr/bin/env node
// Rebuilds native dependencies for Electron's ABI where the Electron binary exists; where it is
// absent (blocked download, CI) it says so and leaves them built for Node. Never fails the install.
import { findElectron } from "./electron-binary.mjs";
import { ensureNativeAbi } from "./native-abi.mjs";

const electron = findElectron();
if (!electron.ok) {
  console.log(
    `hermes-desktop: skipping the native rebuild for Electron: ${electron.why}. Native modules stay built for Node.`,
  );
} else {
  try {
    ensureNativeAbi("electron");
  } catch (err) {
    console.log(
      `hermes-desktop: the native rebuild for Electron failed (${err.message}); \`npm start\` will retry it.`,
    );
  }
}
