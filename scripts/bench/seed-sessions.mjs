// A data home's session store filled as a person's would be: `sessions` chats of `messages`
// messages each (person and assistant in turn), written through the built session store into
// `<home>/sessions.sqlite`, the file the host opens. Deterministic, so runs compare.
import { join } from "node:path";
import { loadHost } from "./plugin-host-rig.mjs";
import { ManualClock } from "./manual-clock.mjs";

const WORDS = (
  "the plan for this week is to finish the report and then review the code with the team before " +
  "friday because the release needs a clean build a test run and a short note on what changed"
).split(" ");

/** Writes the chats; resolves to how many chats and messages the store then holds. */
export async function seedSessions(home, { sessions, messages }) {
  const { SessionStore } = await loadHost("sessions/session-store.js");
  const clock = new ManualClock();
  const store = new SessionStore({ file: join(home, "sessions.sqlite"), clock });
  const snapshot = {
    mainRoute: { provider: "bench", model: "bench/model" },
    systemPrompt: "",
    prefillMessages: [],
    ephemeralSystemPrompt: null,
  };
  let n = 0;
  const text = (length) =>
    Array.from({ length }, () => WORDS[(n = (n * 1103515245 + 12345) % 2147483648) % WORDS.length]).join(" ");
  try {
    for (let done = 0; done < sessions; done += 500) {
      store.transaction(() => {
        for (let s = done; s < Math.min(sessions, done + 500); s++) {
          const session = store.createSession({ snapshot, title: `Chat ${s}: ${text(3)}` });
          for (let m = 0; m < messages; m++) {
            clock.advance(1_000);
            store.appendMessage({
              sessionId: session.id,
              turnId: `turn-${m >> 1}`,
              role: m % 2 === 0 ? "user" : "assistant",
              content: m % 2 === 0 ? text(12) : text(60),
            });
          }
        }
      });
    }
    const listed = store.listSessions({ limit: sessions + 1 });
    const counted = listed.reduce((sum, s) => sum + store.listMessages(s.id).length, 0);
    return { sessions: listed.length, messages: counted };
  } finally {
    store.close();
  }
}
