// @vitest-environment happy-dom
/**
 * Settings → MCP: rows (status, error, tool count) kept live by `mcp.status`, the Add form (stdio
 * and URL, secrets through `mcp.setSecret` and never in the block), a refusal under the field the
 * host named, Import's added/skipped list, the per-tool switches and the row actions.
 */
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { McpServerView } from "../../electron/host/rpc/methods/mcp";
import { HermesRpcError } from "../../renderer/src/api/rpc-error";
import { fakeClient, settingsWith, type Handlers } from "./fake-client";
import { renderApp } from "./render-app";

afterEach(cleanup);

const server = (overrides: Partial<McpServerView> & { id: string }): McpServerView => ({
  transport: "stdio",
  enabled: true,
  status: "ready",
  tools: [],
  resources: 0,
  prompts: 0,
  config: { command: "node", args: ["server.js"] },
  approval: "ask",
  secrets: { env: [], headers: [] },
  restarts: 0,
  ...overrides,
});

const files = server({
  id: "files",
  serverInfo: { name: "secure-filesystem-server", version: "0.2.0" },
  tools: [
    {
      name: "read_text_file",
      qualifiedName: "mcp__files__read_text_file",
      description: "Read a file as text.",
      enabled: true,
      readOnly: true,
      approval: "ask",
    },
    {
      name: "write_file",
      qualifiedName: "mcp__files__write_file",
      description: "Write a file.",
      enabled: true,
      readOnly: false,
      approval: "ask",
    },
  ],
  secrets: { env: [{ name: "API_TOKEN", hasValue: true, keyHint: "wxyz" }], headers: [] },
});
const broken = server({
  id: "broken",
  status: "error",
  error: "command not found: nosuchcmd (searched PATH /usr/bin:/bin)",
  config: { command: "nosuchcmd" },
});

const base: Handlers = {
  "host.info": () => ({ version: "1.2.3", mode: "web" as const, home: "/tmp/h", notices: [] }),
  "settings.get": () => settingsWith({ model: { provider: "local", model: "m" } }),
  "providers.list": () => ({ providers: [] }),
};

async function openMcp() {
  fireEvent.click(
    within(screen.getByRole("navigation", { name: "Main" })).getByRole("button", { name: "Settings" }),
  );
  fireEvent.click(
    within(screen.getByRole("navigation", { name: "Settings" })).getByRole("button", { name: "MCP" }),
  );
  await screen.findByRole("heading", { name: "MCP" });
}

const row = (id: string): HTMLElement => {
  const element = document.querySelector<HTMLElement>(`[data-mcp-server="${id}"]`);
  if (!element) throw new Error(`no row for ${id}`);
  return element;
};

describe("Settings → MCP", () => {
  it("lists each server with its status, tool count and error, and follows mcp.status", async () => {
    const client = fakeClient({ ...base, "mcp.list": () => ({ servers: [files, broken] }) });
    renderApp(client);
    await openMcp();
    await waitFor(() => row("files"));
    expect(within(row("files")).getByText("Ready")).toBeTruthy();
    expect(row("files").textContent).toContain("2 tools");
    expect(row("files").textContent).toContain("secure-filesystem-server 0.2.0");
    expect(within(row("broken")).getByText("Error")).toBeTruthy();
    expect(within(row("broken")).getByRole("alert").textContent).toContain("command not found: nosuchcmd");

    act(() =>
      client.emit({
        type: "mcp.status",
        session_id: null,
        payload: { id: "files", status: "error", error: "exited with code 1: boom" },
      }),
    );
    expect(within(row("files")).getByText("Error")).toBeTruthy();
    expect(within(row("files")).getByRole("alert").textContent).toContain("exited with code 1: boom");
  });

  it("adds a stdio server: the block without secrets, then each secret through mcp.setSecret", async () => {
    const saved: unknown[] = [];
    let servers: McpServerView[] = [];
    const client = fakeClient({
      ...base,
      "mcp.list": () => ({ servers }),
      "mcp.save": ({ id, server: block }) => {
        saved.push(block);
        servers = [server({ id, status: "starting", config: block })];
        return { server: servers[0] as McpServerView };
      },
      "mcp.setSecret": ({ value }) => ({ hasValue: true, keyHint: value.slice(-4) }),
    });
    renderApp(client);
    await openMcp();
    fireEvent.click(await screen.findByRole("button", { name: "Add server" }));
    const dialog = await screen.findByRole("dialog", { name: "Add MCP server" });
    fireEvent.change(within(dialog).getByLabelText("Server ID"), { target: { value: "files" } });
    fireEvent.change(within(dialog).getByLabelText("Command"), { target: { value: "node" } });
    fireEvent.change(within(dialog).getByLabelText("Arguments"), {
      target: { value: "/opt/fs/index.js\n/home/me/notes dir" },
    });
    fireEvent.change(within(dialog).getByLabelText("Environment"), { target: { value: "LOG_LEVEL=info" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Add secret variable" }));
    fireEvent.change(within(dialog).getByLabelText("Name of secret variable 1"), {
      target: { value: "API_TOKEN" },
    });
    const value = within(dialog).getByLabelText("Value of API_TOKEN") as HTMLInputElement;
    expect(value.type).toBe("password");
    value.value = "canary-secret-1234";
    fireEvent.click(within(dialog).getByRole("button", { name: "Add server" }));

    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(saved).toEqual([
      {
        command: "node",
        args: ["/opt/fs/index.js", "/home/me/notes dir"],
        env: { LOG_LEVEL: "info" },
        secret_env: ["API_TOKEN"],
        approval: "ask",
      },
    ]);
    expect(JSON.stringify(saved)).not.toContain("canary");
    expect(client.callsOf("mcp.setSecret")).toEqual([
      { id: "files", kind: "env", name: "API_TOKEN", value: "canary-secret-1234" },
    ]);
    await waitFor(() => row("files"));
  });

  it("adds a URL server with transport, headers and OAuth", async () => {
    const client = fakeClient({
      ...base,
      "mcp.list": () => ({ servers: [] }),
      "mcp.save": ({ id, server: block }) => ({
        server: server({ id, transport: "sse", status: "starting", config: block }),
      }),
    });
    renderApp(client);
    await openMcp();
    fireEvent.click(await screen.findByRole("button", { name: "Add server" }));
    const dialog = await screen.findByRole("dialog", { name: "Add MCP server" });
    fireEvent.change(within(dialog).getByLabelText("Server ID"), { target: { value: "remote" } });
    fireEvent.click(within(dialog).getByLabelText("A URL (HTTP)"));
    fireEvent.change(within(dialog).getByLabelText("URL"), {
      target: { value: "https://mcp.example.com/sse" },
    });
    fireEvent.change(within(dialog).getByLabelText("Transport"), { target: { value: "sse" } });
    fireEvent.change(within(dialog).getByLabelText("Headers"), { target: { value: "X-Team: blue" } });
    fireEvent.click(within(dialog).getByLabelText("Sign in with OAuth (opens your browser)"));
    fireEvent.change(within(dialog).getByLabelText("Approval"), { target: { value: "read_only" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Add server" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(client.callsOf("mcp.save")).toEqual([
      {
        id: "remote",
        server: {
          url: "https://mcp.example.com/sse",
          transport: "sse",
          headers: { "X-Team": "blue" },
          auth: "oauth",
          approval: "read_only",
        },
      },
    ]);
  });

  it("shows the host's refusal under the field it names, and keeps what was typed", async () => {
    renderApp(
      fakeClient({
        ...base,
        "mcp.list": () => ({ servers: [] }),
        "mcp.save": () => {
          throw new HermesRpcError("invalid_params", "mcp_servers.files.command must not be empty", {
            key: "mcp_servers.files.command",
          });
        },
      }),
    );
    await openMcp();
    fireEvent.click(await screen.findByRole("button", { name: "Add server" }));
    const dialog = await screen.findByRole("dialog", { name: "Add MCP server" });
    fireEvent.change(within(dialog).getByLabelText("Server ID"), { target: { value: "files" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Add server" }));
    const command = within(dialog).getByLabelText("Command");
    await waitFor(() => expect(command.getAttribute("aria-invalid")).toBe("true"));
    const described = command.getAttribute("aria-describedby") ?? "";
    const errorText = described
      .split(" ")
      .map((id) => document.getElementById(id)?.textContent)
      .join(" ");
    expect(errorText).toContain("mcp_servers.files.command must not be empty");
    expect((within(dialog).getByLabelText("Server ID") as HTMLInputElement).value).toBe("files");
  });

  it("refuses an environment line without = before asking the host", async () => {
    const client = fakeClient({ ...base, "mcp.list": () => ({ servers: [] }) });
    renderApp(client);
    await openMcp();
    fireEvent.click(await screen.findByRole("button", { name: "Add server" }));
    const dialog = await screen.findByRole("dialog", { name: "Add MCP server" });
    fireEvent.change(within(dialog).getByLabelText("Server ID"), { target: { value: "x" } });
    fireEvent.change(within(dialog).getByLabelText("Command"), { target: { value: "node" } });
    fireEvent.change(within(dialog).getByLabelText("Environment"), { target: { value: "JUSTANAME" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Add server" }));
    expect(await within(dialog).findByText(/"JUSTANAME" is not an environment variable/)).toBeTruthy();
    expect(client.callsOf("mcp.save")).toEqual([]);
  });

  it("edits a server keeping the keys the form doesn't show, and shows a saved secret's last 4 only", async () => {
    const tuned = server({
      ...files,
      config: {
        command: "node",
        args: ["a.js"],
        timeout: 30,
        always_allow: ["read_text_file"],
        secret_env: ["API_TOKEN"],
      },
    });
    const client = fakeClient({
      ...base,
      "mcp.list": () => ({ servers: [tuned] }),
      "mcp.save": ({ id, server: block }) => ({ server: server({ ...tuned, id, config: block }) }),
    });
    renderApp(client);
    await openMcp();
    await waitFor(() => row("files"));
    fireEvent.click(within(row("files")).getByRole("button", { name: "Edit files" }));
    const dialog = await screen.findByRole("dialog", { name: "Edit files" });
    const secret = within(dialog).getByLabelText("Value of API_TOKEN") as HTMLInputElement;
    expect(secret.type).toBe("password");
    expect(secret.value).toBe("");
    expect(secret.placeholder).toContain("wxyz");
    expect(dialog.textContent).toContain("••••wxyz");
    fireEvent.change(within(dialog).getByLabelText("Arguments"), { target: { value: "b.js" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(client.callsOf("mcp.save")).toEqual([
      {
        id: "files",
        server: {
          command: "node",
          args: ["b.js"],
          timeout: 30,
          always_allow: ["read_text_file"],
          secret_env: ["API_TOKEN"],
          approval: "ask",
        },
      },
    ]);
    expect(client.callsOf("mcp.setSecret")).toEqual([]);
  });

  it("imports Claude Desktop JSON and lists what was added and what was skipped, with why", async () => {
    let servers: McpServerView[] = [];
    const client = fakeClient({
      ...base,
      "mcp.list": () => ({ servers }),
      "mcp.import": () => {
        servers = [server({ id: "files", status: "starting" })];
        return { added: ["files"], skipped: [{ id: "weird", reason: "has both command and url" }] };
      },
    });
    renderApp(client);
    await openMcp();
    fireEvent.click(await screen.findByRole("button", { name: "Import" }));
    const dialog = await screen.findByRole("dialog", { name: "Import MCP servers" });
    const json = '{"mcpServers": {"files": {"command": "npx"}}}';
    fireEvent.change(within(dialog).getByLabelText("Claude Desktop JSON"), { target: { value: json } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Import" }));
    expect(await within(dialog).findByText("Added 1 server")).toBeTruthy();
    expect(within(dialog).getByRole("list", { name: "Added" }).textContent).toContain("files");
    expect(within(dialog).getByRole("list", { name: "Skipped" }).textContent).toContain(
      "weird — has both command and url",
    );
    expect(client.callsOf("mcp.import")).toEqual([{ json }]);
    fireEvent.click(within(dialog).getByRole("button", { name: "Done" }));
    await waitFor(() => row("files"));
  });

  it("switches a tool off and to Always allow, disables and restarts a server, and shows its log", async () => {
    const client = fakeClient({
      ...base,
      "mcp.list": () => ({ servers: [files] }),
      "mcp.setTool": ({ tool, enabled, approval }) => ({
        server: {
          ...files,
          tools: files.tools.map((t) =>
            t.name === tool
              ? { ...t, ...(enabled !== undefined ? { enabled } : {}), ...(approval ? { approval } : {}) }
              : t,
          ),
        },
      }),
      "mcp.save": ({ server: block }) => ({
        server: { ...files, enabled: block.enabled ?? true, status: "disabled", config: block },
      }),
      "mcp.restart": () => ({}),
      "mcp.log": () => ({ text: "[files] started\n[files] listening", truncated: false }),
    });
    renderApp(client);
    await openMcp();
    await waitFor(() => row("files"));
    fireEvent.click(within(row("files")).getByRole("switch", { name: "Use write_file" }));
    await waitFor(() =>
      expect(
        within(row("files")).getByRole("switch", { name: "Use write_file" }).getAttribute("aria-checked"),
      ).toBe("false"),
    );
    fireEvent.change(within(row("files")).getByLabelText("Approval for read_text_file"), {
      target: { value: "allow" },
    });
    await waitFor(() =>
      expect(
        (within(row("files")).getByLabelText("Approval for read_text_file") as HTMLSelectElement).value,
      ).toBe("allow"),
    );
    expect(client.callsOf("mcp.setTool")).toEqual([
      { id: "files", tool: "write_file", enabled: false },
      { id: "files", tool: "read_text_file", approval: "allow" },
    ]);

    fireEvent.click(within(row("files")).getByRole("button", { name: "Restart files" }));
    await waitFor(() => expect(client.callsOf("mcp.restart")).toEqual([{ id: "files" }]));

    const viewLog = within(row("files")).getByRole("button", { name: "View log of files" });
    viewLog.focus();
    fireEvent.click(viewLog);
    const log = await screen.findByRole("dialog", { name: "Log of files" });
    expect(await within(log).findByText(/\[files\] listening/)).toBeTruthy();
    fireEvent.keyDown(log, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    // Focus returns to the control that opened the dialog.
    await waitFor(() => expect(document.activeElement).toBe(viewLog));

    fireEvent.click(within(row("files")).getByRole("switch", { name: "Enable files" }));
    await waitFor(() => expect(within(row("files")).getByText("Disabled")).toBeTruthy());
    expect((client.callsOf("mcp.save")[0] as { server: { enabled: boolean } }).server.enabled).toBe(false);
  });

  it("shows a failed row action in the row", async () => {
    renderApp(
      fakeClient({
        ...base,
        "mcp.list": () => ({ servers: [files] }),
        "mcp.restart": () => {
          throw new HermesRpcError("internal_error", "Couldn't restart files: the host is shutting down.");
        },
      }),
    );
    await openMcp();
    await waitFor(() => row("files"));
    fireEvent.click(within(row("files")).getByRole("button", { name: "Restart files" }));
    expect(await within(row("files")).findByText(/the host is shutting down/)).toBeTruthy();
  });
});
