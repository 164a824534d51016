import { join } from "node:path";

/** Where a data home keeps its chats. */
export const sessionStoreFile = (home: string): string => join(home, "sessions.sqlite");
