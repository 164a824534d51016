/**
 * `logs/agent.log`: one line per audited event, `<ISO time> LEVEL <event> key=value …` (docs/contract.md §6.7).
 * Every line passes through the redactor with force, so no key reaches the file.
 */
import { closeSync, fstatSync, mkdirSync, openSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { Clock } from "../clock.js";

export type LogLevel = "INFO" | "WARN" | "ERROR";
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface AgentLog {
  write(level: LogLevel, event: string, fields?: LogFields): void;
  readonly file: string;
  /** Lets go of the file (the host is closing); a later write opens it again. */
  close?(): void;
}

/** How often the open file is checked against the path (the person may delete or move the log). */
const RECHECK_MS = 1_000;

const formatValue = (value: string | number | boolean | null): string => {
  const text = String(value);
  return /^[^\s"=]*$/.test(text) && text !== "" ? text : JSON.stringify(text);
};

export function createAgentLog(home: string, clock: Clock, redact: (text: string) => string): AgentLog {
  const dir = join(home, "logs");
  const file = join(dir, "agent.log");
  // The file stays open between lines: one write per line instead of an open, a write and a close
  // (it sits on the path of every `ctx.llm` call, whose audit line is written before it returns).
  let fd: number | null = null;
  let checkedAt = 0;
  const close = () => {
    if (fd === null) return;
    try {
      closeSync(fd);
    } catch {
      // Already gone; nothing to give back.
    }
    fd = null;
  };
  const openFile = (): number => {
    mkdirSync(dir, { recursive: true });
    fd = openSync(file, "a");
    checkedAt = Date.now();
    return fd;
  };
  /** The open file, reopened when the path no longer names it (deleted, moved aside). */
  const current = (): number => {
    if (fd === null) return openFile();
    if (Date.now() - checkedAt < RECHECK_MS) return fd;
    checkedAt = Date.now();
    const onDisk = statSync(file, { throwIfNoEntry: false });
    if (onDisk && onDisk.ino === fstatSync(fd).ino) return fd;
    close();
    return openFile();
  };
  return {
    file,
    write(level, event, fields = {}) {
      const parts = Object.entries(fields)
        .filter((entry): entry is [string, string | number | boolean | null] => entry[1] !== undefined)
        .map(([k, v]) => `${k}=${formatValue(v)}`);
      const line = `${new Date(clock.now()).toISOString()} ${level} ${event}${parts.length ? " " + parts.join(" ") : ""}`;
      const text = redact(line).replace(/[\r\n]+/g, " ") + "\n";
      try {
        writeSync(current(), text);
      } catch {
        // Logging must never take the app down (disk full, read-only home); the event is lost, not the work.
        close();
      }
    },
    close,
  };
}
