// Loaded with --import into a Node child that stands in for Electron's utility process: gives it
// the `process.parentPort` Electron provides there (messages arrive as `{data}`), over Node's IPC.
const listeners = [];
process.on("message", (data) => {
  for (const listener of listeners) listener({ data });
});
process.parentPort = {
  on(event, listener) {
    if (event === "message") listeners.push(listener);
  },
  postMessage(message) {
    if (process.connected) process.send(message);
  },
};
