/**
 * Finding and reading a Hermes set-up (docs/contract.md §3.1): `config.yaml` from `from`, else
 * `$HERMES_HOME/config.yaml`, else `~/.hermes/config.yaml`, and the `.env` beside it. Everything
 * that could hurt is refused before it is read in full: a file over 1 MB, one that is not a
 * regular file, YAML whose aliases would expand without bound, a `.env` that is a symlink leading
 * out of its folder.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseDocument } from "yaml";
import { parseDotenv } from "./dotenv.js";
import { HermesImportError } from "./import-errors.js";

export const MAX_HERMES_FILE_BYTES = 1024 * 1024;
/** Hermes configs use a few anchors at most; more than this is a bomb, not a config. */
const MAX_ALIASES = 50;

export interface HermesSource {
  /** The config.yaml read. */
  configPath: string;
  config: Record<string, unknown>;
  /** The `.env` beside it, by variable name (empty when there is none). Values never leave the host. */
  env: ReadonlyMap<string, string>;
}

type Env = Readonly<Record<string, string | undefined>>;

/** Where the Hermes config is looked for when no `from` is given. */
export function defaultHermesConfigPath(env: Env = process.env, home = os.homedir()): string {
  const hermesHome = env["HERMES_HOME"]?.trim();
  return path.join(hermesHome || path.join(home, ".hermes"), "config.yaml");
}

/** Whether a Hermes config exists where the import would look (for the first-run offer). */
export function hermesConfigExists(env: Env = process.env, home = os.homedir()): boolean {
  try {
    return fs.statSync(defaultHermesConfigPath(env, home)).isFile();
  } catch {
    return false;
  }
}

export function readHermesSource(from: string | undefined, env: Env = process.env): HermesSource {
  const configPath = path.resolve(from?.trim() || defaultHermesConfigPath(env));
  const text = readBoundedText(configPath, "the Hermes config");
  const config = parseHermesYaml(text, configPath);
  const envPath = path.join(path.dirname(configPath), ".env");
  return { configPath, config, env: readDotenv(envPath) };
}

function readBoundedText(file: string, what: string): string {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    throw unreadable(file, what, error);
  }
  if (!stat.isFile()) throw new HermesImportError(`${file} is not a file, so ${what} can't be read from it.`);
  if (stat.size > MAX_HERMES_FILE_BYTES) {
    throw new HermesImportError(
      `${file} is ${formatSize(stat.size)}; ${what} must be at most 1 MB. Point the import at the right file.`,
    );
  }
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    throw unreadable(file, what, error);
  }
  // The file may have grown between the look and the read.
  if (bytes.length > MAX_HERMES_FILE_BYTES) {
    throw new HermesImportError(`${file} is over 1 MB; ${what} must be at most 1 MB.`);
  }
  return bytes.toString("utf8");
}

function unreadable(file: string, what: string, error: unknown): HermesImportError {
  const code = (error as NodeJS.ErrnoException).code;
  const why =
    code === "ENOENT"
      ? "it does not exist"
      : code === "EACCES" || code === "EPERM"
        ? "permission denied"
        : code === "EISDIR"
          ? "it is a folder"
          : (error as Error).message;
  return new HermesImportError(`Can't read ${what} at ${file}: ${why}.`);
}

function parseHermesYaml(text: string, file: string): Record<string, unknown> {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
  const firstError = doc.errors[0];
  if (firstError) {
    throw new HermesImportError(`${file} is not valid YAML: ${firstError.message.split("\n")[0]}`);
  }
  let value: unknown;
  try {
    // Bounds alias expansion ("billion laughs"): past it, toJS throws instead of growing.
    value = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (error) {
    throw new HermesImportError(
      `${file} can't be imported: ${(error as Error).message}. Its aliases (*name) expand too far.`,
    );
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new HermesImportError(
      `${file} holds ${Array.isArray(value) ? "a list" : "a single value"}, not Hermes settings.`,
    );
  }
  return value as Record<string, unknown>;
}

/**
 * The `.env` beside the config. A symlink is followed only to a file in the same folder: one
 * that leads elsewhere could make the import read (and offer to store) any file of the user's.
 */
function readDotenv(envPath: string): ReadonlyMap<string, string> {
  let link: fs.Stats;
  try {
    link = fs.lstatSync(envPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return new Map();
    throw unreadable(envPath, "Hermes' .env", error);
  }
  if (link.isSymbolicLink()) {
    const folder = fs.realpathSync(path.dirname(envPath));
    let target: string;
    try {
      target = fs.realpathSync(envPath);
    } catch (error) {
      throw unreadable(envPath, "Hermes' .env", error);
    }
    if (path.dirname(target) !== folder) {
      throw new HermesImportError(
        `${envPath} is a symlink to ${target}, outside its folder ${folder}; the import reads only a .env ` +
          `that lives beside config.yaml. Copy the file there instead of linking it.`,
      );
    }
  }
  return parseDotenv(readBoundedText(envPath, "Hermes' .env"));
}

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
