/**
 * `logs/mcp/<id>.log`: a server's stderr and the host's notes about it (start, exit, restart),
 * every line redacted with force. The last lines stay in memory too, for the error a crash shows.
 */
import { appendFileSync, closeSync, fstatSync, mkdirSync, openSync, readSync } from "node:fs";
import { join } from "node:path";

const TAIL_LINES = 20;
const MAX_LINE = 4000;
/** "View log" shows at most this much of the file's end. */
export const LOG_VIEW_BYTES = 64 * 1024;

export class ServerLog {
  readonly file: string;
  private readonly recent: string[] = [];
  private partial = "";

  constructor(
    logsDir: string,
    id: string,
    private readonly redact: (text: string) => string,
    private readonly now: () => number = Date.now,
  ) {
    this.file = join(logsDir, "mcp", `${id}.log`);
  }

  /** A chunk of the server's stderr; split into lines (a line may arrive in pieces). */
  stderr(chunk: string): void {
    const lines = (this.partial + chunk).split(/\r?\n/);
    this.partial = lines.pop() ?? "";
    if (this.partial.length > MAX_LINE) {
      lines.push(this.partial);
      this.partial = "";
    }
    for (const line of lines) if (line.trim()) this.write(line, true);
  }

  /** A line of the host's own about this server. */
  note(text: string): void {
    this.write(`[hermes] ${text}`, false);
  }

  /** The last stderr lines (redacted), for an exit's error message. */
  tail(lines = 5): string {
    const pending = this.partial.trim() ? [this.redact(this.partial.slice(0, MAX_LINE))] : [];
    return [...this.recent, ...pending].slice(-lines).join("\n");
  }

  /** Forgets the remembered tail (a fresh start). */
  resetTail(): void {
    this.recent.length = 0;
    this.partial = "";
  }

  private write(line: string, remember: boolean): void {
    const safe = this.redact(line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line);
    if (remember) {
      this.recent.push(safe);
      if (this.recent.length > TAIL_LINES) this.recent.shift();
    }
    try {
      mkdirSync(join(this.file, ".."), { recursive: true });
      appendFileSync(this.file, `${new Date(this.now()).toISOString()} ${safe}\n`, { mode: 0o600 });
    } catch {
      // A full disk or a removed folder must not take the server down; the tail still holds it.
    }
  }
}

/** The end of a server's log file (at most LOG_VIEW_BYTES), redacted once more on the way out. */
export function readLogTail(
  file: string,
  redact: (text: string) => string,
): { text: string; truncated: boolean } {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return { text: "", truncated: false };
  }
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, LOG_VIEW_BYTES);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    let text = buffer.toString("utf8");
    // Start at a whole line when the file was cut.
    if (size > length) text = text.slice(text.indexOf("\n") + 1);
    return { text: redact(text), truncated: size > length };
  } finally {
    closeSync(fd);
  }
}
