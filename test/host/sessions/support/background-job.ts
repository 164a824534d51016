import type { SessionRig } from "./session-rig.js";

/** Background work of a session as a fork registers it; records why it was cancelled, `end` settles it. */
export function backgroundJob(rig: SessionRig, sessionId: string, pluginId = "forker") {
  const reasons: string[] = [];
  let end!: () => void;
  const settled = new Promise<void>((resolve) => (end = resolve));
  rig.host.sessions.backgroundWork.register({
    sessionId,
    kind: "fork",
    pluginId,
    cancel: (reason) => {
      reasons.push(reason);
      end();
    },
    settled,
  });
  return { reasons, end };
}
