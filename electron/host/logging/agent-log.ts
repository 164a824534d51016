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
  /** Writes the line now (with any queued before it, in order). */
  write(level: LogLevel, event: string, fields?: LogFields): void;
  /**
   * Stamps the line now and writes it within `QUEUED_LINE_DELAY_MS`, so a hot path (every `ctx.llm`
   * call's audit line) hands its answer back before the formatting, redaction and disk write, and a
   * burst of calls shares one write. Queued lines are written before any later `write`, on
   * `flush`/`close`, and as the process exits (an uncaught error included).
   */
  writeSoon(level: LogLevel, event: string, fields?: LogFields): void;
  /** Writes the queued lines now (a reader of the file that must see the last `writeSoon`). */
  flush(): void;
  readonly file: string;
  /** Lets go of the file (the host is closing) after writing what is queued; a later write opens it again. */
  close?(): void;
}

/** How often the open file is checked against the path (the person may delete or move the log). */
const RECHECK_MS = 1_000;
/** How long a queued line may wait for company before it is written. */
export const QUEUED_LINE_DELAY_MS = 20;
/** A burst this long is written at once rather than held in memory. */
const MAX_QUEUED_LINES = 256;

const formatValue = (value: string | number | boolean | null): string => {
  const text = String(value);
  return /^[^\s"=]*$/.test(text) && text !== "" ? text : JSON.stringify(text);
};

interface Entry {
  at: number;
  level: LogLevel;
  event: string;
  fields: LogFields;
}

/** Logs with queued lines; one exit listener writes them all, however many logs a process opens. */
const withQueuedLines = new Set<AgentLog>();
let exitListening = false;
function flushAtExit(log: AgentLog): void {
  withQueuedLines.add(log);
  if (exitListening) return;
  exitListening = true;
  process.on("exit", () => {
    for (const queued of [...withQueuedLines]) queued.flush();
  });
}

export function createAgentLog(home: string, clock: Clock, redact: (text: string) => string): AgentLog {
  const dir = join(home, "logs");
  const file = join(dir, "agent.log");
  // The file stays open between lines: one write per line instead of an open, a write and a close
  // (it sits on the path of every `ctx.llm` call).
  let fd: number | null = null;
  let checkedAt = 0;
  let queued: Entry[] = [];
  let timer: NodeJS.Timeout | null = null;
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
  const format = ({ at, level, event, fields }: Entry): string => {
    let line = `${new Date(at).toISOString()} ${level} ${event}`;
    for (const key in fields) {
      const value = fields[key];
      if (value !== undefined) line += ` ${key}=${formatValue(value)}`;
    }
    return redact(line).replace(/[\r\n]+/g, " ") + "\n";
  };
  /** One write for the queued lines and `entry`, in order. */
  const writeOut = (entry: Entry | null) => {
    const entries = queued;
    queued = [];
    withQueuedLines.delete(log);
    if (timer) clearTimeout(timer);
    timer = null;
    if (entry) entries.push(entry);
    if (entries.length === 0) return;
    const text = entries.map(format).join("");
    try {
      writeSync(current(), text);
    } catch {
      // Logging must never take the app down (disk full, read-only home); the event is lost, not the work.
      close();
    }
  };
  const log: AgentLog = {
    file,
    write(level, event, fields = {}) {
      writeOut({ at: clock.now(), level, event, fields });
    },
    writeSoon(level, event, fields = {}) {
      if (queued.length === 0) {
        // Unref'd: a queued line never keeps the process up; the exit listener writes it.
        timer = setTimeout(() => writeOut(null), QUEUED_LINE_DELAY_MS);
        timer.unref();
        flushAtExit(log);
      }
      queued.push({ at: clock.now(), level, event, fields: { ...fields } });
      if (queued.length >= MAX_QUEUED_LINES) writeOut(null);
    },
    flush: () => writeOut(null),
    close() {
      writeOut(null);
      close();
    },
  };
  return log;
}
