/**
 * Finds a stdio server's command on PATH before spawning it, so "not found" names the command and
 * the folders searched instead of a bare `spawn npx ENOENT`.
 */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";

export class CommandNotFoundError extends Error {
  override readonly name = "CommandNotFoundError";
}

/** The command's absolute path; throws CommandNotFoundError naming what was searched. */
export function findCommand(command: string, pathValue: string, cwd = process.cwd()): string {
  const executable = (file: string) => {
    try {
      if (!statSync(file).isFile()) return false;
      accessSync(file, process.platform === "win32" ? constants.F_OK : constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (command.includes("/") || (process.platform === "win32" && command.includes("\\"))) {
    const file = isAbsolute(command) ? command : resolve(cwd, command);
    if (executable(file)) return file;
    throw new CommandNotFoundError(`command not found: ${command} (no executable file at ${file})`);
  }
  const dirs = pathValue.split(delimiter).filter(Boolean);
  const extensions = process.platform === "win32" ? ["", ".exe", ".cmd", ".bat"] : [""];
  for (const dir of dirs) {
    for (const extension of extensions) {
      const file = join(dir, command + extension);
      if (executable(file)) return file;
    }
  }
  throw new CommandNotFoundError(
    `command not found: ${command} (searched PATH ${dirs.join(delimiter) || "(empty)"}); install it or give its full path`,
  );
}
