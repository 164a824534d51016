import { describe, expect, it } from "vitest";
import { toServerConfig, expandVariables } from "../../../electron/host/mcp/server-config.js";
import { fnmatch, qualifiedToolName, toolEnabled } from "../../../electron/host/mcp/tools/tool-names.js";
import { parseClaudeDesktop, toServerId } from "../../../electron/host/mcp/mcp-import.js";
import {
  convertToolResult,
  cutToLimit,
  stripTagCharacters,
} from "../../../electron/host/mcp/tools/tool-result.js";
import { findCommand } from "../../../electron/host/mcp/connections/command-lookup.js";
import { loginShellPath, mergePaths } from "../../../electron/host/mcp/connections/shell-path.js";
import {
  MAX_REFRESH_MARGIN_MS,
  refreshDue,
  refreshMarginMs,
} from "../../../electron/host/mcp/oauth/oauth-refresh.js";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runToolCall } from "../../../electron/host/sessions/turns/tool-dispatch.js";
import { ToolRegistry } from "../../../electron/host/plugins/registries/tool-registry.js";
import { HookRegistry } from "../../../electron/host/plugins/registries/hook-registry.js";
import { systemClock } from "../../../electron/host/clock.js";
import type { ExternalTools } from "../../../electron/host/sessions/turns/external-tools.js";

describe("MCP OAuth: when a token is refreshed ahead of its expiry", () => {
  it("a tenth of its lifetime before, at most a minute; a minute when the lifetime is unknown", () => {
    const hour = { issuedAt: 0, expiresAt: 3_600_000 };
    expect(refreshMarginMs(hour)).toBe(MAX_REFRESH_MARGIN_MS);
    expect(refreshDue(hour, 3_540_000 - 1)).toBe(false);
    expect(refreshDue(hour, 3_540_000)).toBe(true);
    const short = { issuedAt: 0, expiresAt: 2_000 };
    expect(refreshMarginMs(short)).toBe(200);
    expect(refreshDue(short, 1_799)).toBe(false);
    expect(refreshDue(short, 1_800)).toBe(true);
    expect(refreshDue(short, 5_000)).toBe(true); // already expired
    expect(refreshMarginMs({ expiresAt: 10_000 })).toBe(MAX_REFRESH_MARGIN_MS);
  });
});

describe("MCP names", () => {
  it("qualifies tool names as mcp__<id>__<tool> with [A-Za-z0-9_] only", () => {
    expect(qualifiedToolName("files", "read_text_file")).toBe("mcp__files__read_text_file");
    expect(qualifiedToolName("my-server", "get.sum/v2")).toBe("mcp__my_server__get_sum_v2");
  });

  it("cuts names over 64 characters with a short hash that keeps them apart", () => {
    const a = qualifiedToolName("server", `${"x".repeat(70)}_a`);
    const b = qualifiedToolName("server", `${"x".repeat(70)}_b`);
    expect(a).toHaveLength(64);
    expect(b).toHaveLength(64);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^mcp__server__x+_[0-9a-f]{8}$/);
  });

  it("fnmatch: *, ?, sets; include wins over exclude", () => {
    expect(fnmatch("write_*", "write_file")).toBe(true);
    expect(fnmatch("write_*", "read_file")).toBe(false);
    expect(fnmatch("get-?um", "get-sum")).toBe(true);
    expect(fnmatch("[rw]*", "write")).toBe(true);
    expect(fnmatch("[!rw]*", "write")).toBe(false);
    expect(fnmatch("a.b", "axb")).toBe(false);
    expect(toolEnabled({ include: [], exclude: ["write_*"] }, "write_file")).toBe(false);
    expect(toolEnabled({ include: ["write_file"], exclude: ["write_*"] }, "write_file")).toBe(true);
    expect(toolEnabled({ include: ["read_*"], exclude: [] }, "list")).toBe(false);
  });
});

describe("MCP server blocks", () => {
  const context = { env: { TOKEN_DIR: "/srv/tokens" }, userHome: "/home/ada" };

  it("expands ${userHome}, ${VAR} and ${env:VAR}; an unset variable is empty", () => {
    expect(expandVariables("${userHome}/notes:${TOKEN_DIR}:${env:TOKEN_DIR}:${NOPE}", context)).toBe(
      "/home/ada/notes:/srv/tokens:/srv/tokens:",
    );
  });

  it("fills defaults and reads Hermes' trust as approval", () => {
    const config = toServerConfig("files", { command: "npx", args: ["${userHome}/x"] }, context);
    expect(config).toMatchObject({
      transport: "stdio",
      enabled: true,
      args: ["/home/ada/x"],
      callTimeoutMs: 300_000,
      connectTimeoutMs: 60_000,
      approval: "ask",
      sampling: { enabled: true, maxTokensCap: 4096, maxRpm: 10 },
      elicitation: { enabled: true, timeoutMs: 300_000 },
    });
    expect(toServerConfig("a", { command: "x", trust: "full" }, context).approval).toBe("never");
    expect(toServerConfig("a", { command: "x", trust: "untrusted" }, context).approval).toBe("read_only");
    expect(toServerConfig("a", { command: "x", trust: "full", approval: "ask" }, context).approval).toBe(
      "ask",
    );
    expect(toServerConfig("r", { url: "https://x/sse", transport: "sse" }, context).transport).toBe("sse");
  });
});

describe("Claude Desktop import", () => {
  it("moves env values named like secrets to secret_env, any case", () => {
    const { servers, skipped } = parseClaudeDesktop(
      JSON.stringify({
        mcpServers: {
          "GitHub Server": {
            command: "npx",
            args: ["-y", "@modelcontextprotocol/server-github"],
            env: { GITHUB_PERSONAL_ACCESS_TOKEN: "ghp_x", api_key: "k", Db_Password: "p", LOG_LEVEL: "info" },
          },
          "!!!": { command: "x" },
        },
      }),
    );
    expect(servers).toEqual([
      {
        id: "github-server",
        block: {
          command: "npx",
          args: ["-y", "@modelcontextprotocol/server-github"],
          env: { LOG_LEVEL: "info" },
          secret_env: ["GITHUB_PERSONAL_ACCESS_TOKEN", "api_key", "Db_Password"],
        },
        secrets: { GITHUB_PERSONAL_ACCESS_TOKEN: "ghp_x", api_key: "k", Db_Password: "p" },
        headerSecrets: {},
      },
    ]);
    expect(skipped).toEqual([{ id: "!!!", reason: "its name has no letter or digit to make an id from" }]);
    expect(toServerId("A".repeat(40))).toHaveLength(32);
    expect(() => parseClaudeDesktop("{nope")).toThrow(/not JSON/);
    expect(() => parseClaudeDesktop("{}")).toThrow(/No "mcpServers" object/);
  });
});

describe("MCP results", () => {
  it("strips Unicode tag characters and cuts at 256 KB on a character boundary", () => {
    expect(stripTagCharacters("a\u{E0041}\u{E007F}b")).toBe("ab");
    const cut = cutToLimit("é".repeat(200_000));
    expect(cut).toMatch(/\[The result was 391 KB; it was cut to the first 256 KB\.\]$/);
    expect(cut).not.toContain("\uFFFD");
    // The fast paths: a variation selector shares the tag characters' high surrogate and stays;
    // text at exactly 256 KB of 3-byte characters is not cut, one character more is.
    expect(stripTagCharacters("x\u{E0100}\u{E0020}y")).toBe("x\u{E0100}y");
    expect(cutToLimit("€".repeat(87_381))).toBe("€".repeat(87_381));
    expect(cutToLimit("€".repeat(87_382))).toMatch(/cut to the first 256 KB/);
  });

  it("embedded resources as text, links named, isError kept", () => {
    const converted = convertToolResult({
      isError: true,
      content: [
        { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "inside" } },
        { type: "resource_link", uri: "https://x.example/doc", name: "Doc" },
      ],
    });
    expect(converted).toMatchObject({
      isError: true,
      links: [{ uri: "https://x.example/doc", name: "Doc" }],
    });
    expect(converted.text).toBe(
      "Resource file:///a.txt (text/plain):\ninside\nLink: Doc <https://x.example/doc>",
    );
  });
});

describe("finding a stdio command", () => {
  it("names the command and every folder searched", () => {
    expect(() => findCommand("no-such-cmd", "/a:/b")).toThrow(
      "command not found: no-such-cmd (searched PATH /a:/b)",
    );
    expect(findCommand("node", process.env["PATH"] ?? "")).toMatch(/node$/);
    expect(mergePaths("/opt/bin:/usr/bin", "/usr/bin:/bin")).toBe("/opt/bin:/usr/bin:/bin");
  });
});

describe("the login shell's PATH", () => {
  it("is asked once from $SHELL -ilc and put before the app's own; later calls use the answer", async () => {
    const dir = mkdtempSync(join(tmpdir(), "hermes-shell-"));
    const shell = join(dir, "fake-login-shell");
    // A login shell whose profile adds a folder: it runs the command it is given with that PATH.
    writeFileSync(shell, '#!/bin/sh\nPATH="/opt/from-profile/bin:$PATH"; export PATH; eval "$2"\n');
    chmodSync(shell, 0o755);
    const saved = process.env["SHELL"];
    process.env["SHELL"] = shell;
    try {
      const path = await loginShellPath();
      expect(path.split(":")[0]).toBe("/opt/from-profile/bin");
      expect(path).toContain(process.env["PATH"]!.split(":")[0]!);
      rmSync(dir, { recursive: true, force: true });
      expect(await loginShellPath()).toBe(path);
    } finally {
      process.env["SHELL"] = saved;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("forks never reach MCP tools", () => {
  it("a call from a fork (turnOrigin set) is not routed to the MCP tools", async () => {
    let ran = 0;
    const external: ExternalTools = {
      owns: (name) => name.startsWith("mcp__"),
      definitions: () => [],
      run: async () => (ran++, { status: "ok", content: "ran" }),
      interruptWaiting: () => undefined,
    };
    const log = { write: () => undefined, writeSoon: () => undefined, flush: () => undefined, file: "" };
    const deps = { tools: new ToolRegistry(), hooks: new HookRegistry(log, systemClock), external };
    const call = {
      id: "x",
      type: "function" as const,
      function: { name: "mcp__files__read", arguments: "{}" },
    };
    const scope = { sessionId: "s", gatewaySessionKey: "g", signal: new AbortController().signal };
    const fromFork = await runToolCall(deps, call, { ...scope, turnOrigin: "plugin_fork:p" });
    expect(fromFork.content).toMatch(/there is no tool named "mcp__files__read"/);
    expect(ran).toBe(0);
    expect((await runToolCall(deps, call, scope)).content).toBe("ran");
  });
});
