import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { findDocumentIssues } from "../../../electron/host/config/schema-issues.js";
import { isUsageCategory } from "../../../electron/host/sessions/store/tables/usage-ledger.js";
import { BUILTIN_SLOTS } from "../../../electron/host/models/auxiliary-tasks.js";

// docs/contract.md §13.1's example, as a user would write it.
const specExample = `
mcp_servers:
  files:
    command: npx
    args: [-y, "@modelcontextprotocol/server-filesystem", "\${userHome}/notes"]
    env: {LOG_LEVEL: info}
    secret_env: [GITHUB_TOKEN]
    enabled: true
    timeout: 300
    connect_timeout: 60
    tools: {include: [], exclude: ["write_*"]}
    approval: ask
    always_allow: [read_text_file]
    roots: ["\${userHome}/notes"]
    sampling: {enabled: true, model: "", max_tokens_cap: 4096, timeout: 30, max_rpm: 10, allowed_models: []}
    elicitation: {enabled: true, timeout: 300}
  remote:
    url: https://mcp.example.com/mcp
    headers: {X-Team: blue}
    secret_headers: [Authorization]
    auth: oauth
    oauth: {client_id: "", scope: "", redirect_port: 0}
  legacy:
    url: http://127.0.0.1:9000/sse
    transport: sse
    trust: untrusted
`;

const issues = (doc: unknown) =>
  findDocumentIssues(doc as Record<string, unknown>).map(({ key, message }) => ({ key, message }));

describe("mcp_servers in config.yaml", () => {
  it("accepts the docs/contract.md §13.1 example", () => {
    expect(issues(parse(specExample))).toEqual([]);
  });

  it("refuses a block with both command and url, saying to keep one", () => {
    expect(issues({ mcp_servers: { both: { command: "npx", url: "https://x.example/mcp" } } })).toEqual([
      {
        key: "mcp_servers.both",
        message:
          "mcp_servers.both has both command and url; keep one: command for a local (stdio) server, url for a remote one",
      },
    ]);
  });

  it("asks for a command when a block has neither", () => {
    expect(issues({ mcp_servers: { empty: { args: ["x"] } } })).toEqual([
      { key: "mcp_servers.empty.command", message: "mcp_servers.empty.command is required" },
    ]);
  });

  it("refuses an id with a space or an upper-case letter, naming the id and the rule", () => {
    const found = issues({ mcp_servers: { "my server": { command: "x" }, Files: { command: "y" } } });
    expect(found.map((i) => i.key)).toEqual(["mcp_servers.my server", "mcp_servers.Files"]);
    expect(found[0]!.message).toContain("is not a valid name here: it must be an MCP server id");
  });

  it("refuses an unknown key with its name and the keys allowed", () => {
    const [issue] = issues({ mcp_servers: { files: { command: "npx", comand_args: ["-y"] } } });
    expect(issue!.key).toBe("mcp_servers.files.comand_args");
    expect(issue!.message).toContain("is not a known setting (allowed here: command, args, env");
  });

  it("checks approval, trust, transport and the numbers", () => {
    const found = issues({
      mcp_servers: {
        a: { command: "x", approval: "sometimes", trust: "partial", timeout: 0 },
        b: { url: "ftp://x", transport: "websocket", sampling: { max_rpm: 0 } },
      },
    });
    expect(found.map((i) => i.key).sort()).toEqual(
      [
        "mcp_servers.a.approval",
        "mcp_servers.a.trust",
        "mcp_servers.a.timeout",
        "mcp_servers.b.url",
        "mcp_servers.b.transport",
        "mcp_servers.b.sampling.max_rpm",
      ].sort(),
    );
  });
});

describe("the mcp slot and usage category", () => {
  it("lists `mcp` (MCP sampling) as the built-in slot after background_review", () => {
    const keys = BUILTIN_SLOTS.map((s) => s.key);
    expect(keys.slice(keys.indexOf("background_review"))).toEqual(["background_review", "mcp"]);
    expect(BUILTIN_SLOTS.find((s) => s.key === "mcp")!.label).toBe("MCP sampling");
  });

  it("bills sampling as mcp:<id>", () => {
    expect(isUsageCategory("mcp:files")).toBe(true);
    expect(isUsageCategory("mcp:Bad Id")).toBe(false);
  });
});
