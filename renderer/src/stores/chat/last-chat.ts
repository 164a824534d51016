/**
 * Which chat was open last, so a reload of the window opens it again instead of a new chat. Kept in
 * the page's storage (only the id); unreadable or blocked storage just means a new chat.
 */
export interface LastChatMemory {
  read(): string | null;
  write(sessionId: string | null): void;
}

const key = "hermes-desktop.last-chat";

export function lastChatIn(storage: Pick<Storage, "getItem" | "setItem" | "removeItem">): LastChatMemory {
  return {
    read: () => {
      try {
        return storage.getItem(key);
      } catch {
        return null;
      }
    },
    write: (sessionId) => {
      try {
        if (sessionId) storage.setItem(key, sessionId);
        else storage.removeItem(key);
      } catch {
        // Storage full or blocked: the next reload starts a new chat, nothing else is lost.
      }
    },
  };
}
