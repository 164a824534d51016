import { describe, expect, it } from "vitest";
import { parseDotenv } from "../../../../electron/host/config/hermes-import/dotenv.js";

describe("Hermes' .env", () => {
  it("reads NAME=value lines as Hermes writes them: export, quotes, comments", () => {
    const env = parseDotenv(
      [
        "# Hermes secrets",
        "OPENROUTER_API_KEY=sk-or-test-1234",
        'DEEPSEEK_API_KEY="sk-test quoted # not a comment"',
        "export GLM_API_KEY='single-quoted'",
        "PLAIN=value # a trailing comment",
        "  SPACED = padded  ",
        'MULTI="line1\\nline2"',
        "not a line",
        "1BAD=x",
        "",
      ].join("\r\n"),
    );
    expect(Object.fromEntries(env)).toEqual({
      OPENROUTER_API_KEY: "sk-or-test-1234",
      DEEPSEEK_API_KEY: "sk-test quoted # not a comment",
      GLM_API_KEY: "single-quoted",
      PLAIN: "value",
      SPACED: "padded",
      MULTI: "line1\nline2",
    });
  });
});
