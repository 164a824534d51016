/** `--port N` and `--home DIR` (also `--port=N`), shared by `npm start` and `npm run web`. */
export interface LaunchArgs {
  port: number;
  home: string | undefined;
}

export class LaunchArgsError extends Error {
  override readonly name = "LaunchArgsError";
}

export function parseLaunchArgs(argv: readonly string[]): LaunchArgs {
  const args: LaunchArgs = { port: 0, home: undefined };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = (argv[i] ?? "").split(/=(.*)/s, 2) as [string, string | undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === "") throw new LaunchArgsError(`${flag} needs a value`);
      return v;
    };
    if (flag === "--port") {
      const port = Number(value());
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        throw new LaunchArgsError(`--port must be a whole number from 0 to 65535`);
      }
      args.port = port;
    } else if (flag === "--home") {
      args.home = value();
    }
    // Other flags belong to Electron or Chromium and pass through untouched.
  }
  return args;
}
