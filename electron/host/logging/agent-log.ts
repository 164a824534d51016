/**
 * `logs/agent.log`: one line per audited event, `<ISO time> LEVEL <event> key=value …` (docs/contract.md §6.7).
 * Every line passes through the redactor with force, so no key reaches the file.
 */
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Clock } from "../clock.js";

export type LogLevel = "INFO" | "WARN" | "ERROR";
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface AgentLog {
  write(level: LogLevel, event: string, fields?: LogFields): void;
  readonly file: string;
}

const formatValue = (value: string | number | boolean | null): string => {
  const text = String(value);
  return /^[^\s"=]*$/.test(text) && text !== "" ? text : JSON.stringify(text);
};

export function createAgentLog(home: string, clock: Clock, redact: (text: string) => string): AgentLog {
  const dir = join(home, "logs");
  const file = join(dir, "agent.log");
  let dirReady = false;
  return {
    file,
    write(level, event, fields = {}) {
      const parts = Object.entries(fields)
        .filter((entry): entry is [string, string | number | boolean | null] => entry[1] !== undefined)
        .map(([k, v]) => `${k}=${formatValue(v)}`);
      const line = `${new Date(clock.now()).toISOString()} ${level} ${event}${parts.length ? " " + parts.join(" ") : ""}`;
      try {
        if (!dirReady) mkdirSync(dir, { recursive: true });
        dirReady = true;
        appendFileSync(file, redact(line).replace(/[\r\n]+/g, " ") + "\n");
      } catch {
        // Logging must never take the app down (disk full, read-only home); the event is lost, not the work.
      }
    },
  };
}
