/**
 * The launch flags of `npm start` and `npm run web`, declared once: `--port N` and `--home DIR`
 * (also `--port=N`). Web mode accepts nothing else; the Electron shell lets other flags through,
 * since Electron and Chromium read their own switches from the same command line.
 */
export interface LaunchArgs {
  port: number;
  home: string | undefined;
}

/** Every flag the app reads, with the name of its value (the one table the parser and its messages use). */
const LAUNCH_FLAGS = { "--port": "N", "--home": "DIR" } as const satisfies Record<string, string>;
type LaunchFlag = keyof typeof LAUNCH_FLAGS;

const isLaunchFlag = (flag: string): flag is LaunchFlag => Object.hasOwn(LAUNCH_FLAGS, flag);

/** `--port N, --home DIR`: what an error lists as accepted. */
export const ACCEPTED_FLAGS = Object.entries(LAUNCH_FLAGS)
  .map(([flag, value]) => `${flag} ${value}`)
  .join(", ");

export class LaunchArgsError extends Error {
  override readonly name = "LaunchArgsError";
}

export interface ParseOptions {
  /**
   * `reject` (web mode): any other argument is an error. `pass` (the Electron shell): other
   * arguments belong to Electron or Chromium and are left alone.
   */
  others: "reject" | "pass";
}

const problem = (what: string): LaunchArgsError =>
  new LaunchArgsError(`${what}; the accepted flags are ${ACCEPTED_FLAGS} (or --flag=value)`);

export function parseLaunchArgs(argv: readonly string[], options: ParseOptions): LaunchArgs {
  const args: LaunchArgs = { port: 0, home: undefined };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = (argv[i] ?? "").split(/=(.*)/s, 2) as [string, string | undefined];
    if (!isLaunchFlag(flag)) {
      if (options.others === "reject") {
        throw problem(flag.startsWith("-") ? `Unknown flag ${flag}` : `Unexpected argument "${argv[i]}"`);
      }
      continue;
    }
    // A value may not look like a flag: `--home --port 1` is a missing value, not a folder.
    const next = inline === undefined ? argv[i + 1] : undefined;
    const value = inline ?? (next !== undefined && !next.startsWith("--") ? argv[++i] : undefined);
    if (value === undefined || value === "")
      throw problem(`${flag} needs a value (${flag} ${LAUNCH_FLAGS[flag]})`);
    if (flag === "--port") {
      const port = Number(value);
      if (!/^\d+$/.test(value) || port > 65535) {
        throw problem(`--port must be a whole number from 0 to 65535, not "${value}"`);
      }
      args.port = port;
    } else {
      args.home = value;
    }
  }
  return args;
}
