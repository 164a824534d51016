// @vitest-environment happy-dom
/**
 * MCP in the composer: a ready server's resources in the attach dialog (a resource, and a
 * template filled by its form) go with the next message; its prompts are `/<id>:<prompt>`
 * commands whose arguments form offers the server's completions and fills the message box.
 */
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { McpServerView } from "../../electron/host/rpc/methods/mcp";
import { chatHandlers } from "./chat-fixtures";
import { fakeClient, type Handlers } from "./fake-client";
import { renderApp } from "./render-app";

afterEach(cleanup);

const docs: McpServerView = {
  id: "docs",
  transport: "stdio",
  enabled: true,
  status: "ready",
  tools: [],
  resources: 1,
  prompts: 1,
  config: { command: "node" },
  approval: "ask",
  secrets: { env: [], headers: [] },
  restarts: 0,
};

function client(overrides: Handlers = {}) {
  return fakeClient(
    chatHandlers({
      "session.create": () => ({ sessionId: "s1" }),
      "session.send": () => ({ turnId: "t1", disposition: "started" }),
      "mcp.list": () => ({ servers: [docs] }),
      "mcp.pending": () => ({ approvals: [], sampling: [], elicitations: [] }),
      "mcp.prompts": () => ({
        prompts: [
          {
            name: "review",
            description: "Review code in a language",
            arguments: [{ name: "lang", description: "The language", required: true }],
          },
        ],
      }),
      "mcp.resources": () => ({
        resources: [{ uri: "file:///notes/todo.md", name: "todo.md", mimeType: "text/markdown" }],
        templates: [{ uriTemplate: "notes://{name}", name: "note", title: "A note by name" }],
      }),
      "mcp.readResource": ({ uri }) => ({
        contents: [{ uri, mimeType: "text/markdown", text: `contents of ${uri}` }],
      }),
      ...overrides,
    }),
  );
}

const messageBox = () => screen.findByRole("combobox", { name: "Message" }) as Promise<HTMLTextAreaElement>;

describe("MCP in the composer", () => {
  it("attaches a resource and a filled template; their text goes with the message", async () => {
    const c = client();
    renderApp(c);
    const box = await messageBox();
    const attach = await screen.findByRole("button", { name: "Attach MCP resource" });
    fireEvent.click(attach);
    let dialog = await screen.findByRole("dialog", { name: "Attach a resource" });
    fireEvent.click(await within(dialog).findByRole("button", { name: "Attach todo.md" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(
      within(screen.getByRole("list", { name: "Attached resources" })).getByText("docs: todo.md"),
    ).toBeTruthy();

    fireEvent.click(attach);
    dialog = await screen.findByRole("dialog", { name: "Attach a resource" });
    const template = await within(dialog).findByRole("form", { name: "Template A note by name" });
    fireEvent.change(within(template).getByLabelText("name"), { target: { value: "ideas 2" } });
    fireEvent.click(within(template).getByRole("button", { name: "Attach A note by name" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(c.callsOf("mcp.readResource")).toEqual([
      { id: "docs", uri: "file:///notes/todo.md" },
      { id: "docs", uri: "notes://ideas%202" },
    ]);

    fireEvent.change(box, { target: { value: "Summarise these" } });
    fireEvent.keyDown(box, { key: "Enter" });
    await waitFor(() => expect(c.callsOf("session.send")).toHaveLength(1));
    expect(c.callsOf("session.send")[0]).toEqual({
      sessionId: "s1",
      text: [
        "Summarise these",
        '<resource server="docs" uri="file:///notes/todo.md" mimeType="text/markdown">\ncontents of file:///notes/todo.md\n</resource>',
        '<resource server="docs" uri="notes://ideas%202" mimeType="text/markdown">\ncontents of notes://ideas%202\n</resource>',
      ].join("\n\n"),
    });
    await waitFor(() => expect(screen.queryByRole("list", { name: "Attached resources" })).toBeNull());
  });

  it("refuses a binary resource that can't go with a message, saying why", async () => {
    renderApp(
      client({
        "mcp.readResource": ({ uri }) => ({
          contents: [{ uri, mimeType: "application/zip", blob: "UEsDBA==" }],
        }),
      }),
    );
    await messageBox();
    fireEvent.click(await screen.findByRole("button", { name: "Attach MCP resource" }));
    const dialog = await screen.findByRole("dialog", { name: "Attach a resource" });
    fireEvent.click(await within(dialog).findByRole("button", { name: "Attach todo.md" }));
    expect(await within(dialog).findByText(/application\/zip, which can't go with a message/)).toBeTruthy();
  });

  it("offers /docs:review, asks its arguments with completions, and fills the box with the prompt", async () => {
    const c = client({
      "mcp.complete": ({ argument }) => ({
        values: ["typescript", "python"].filter((v) => v.startsWith(argument.value)),
        hasMore: false,
      }),
      "mcp.getPrompt": ({ arguments: args }) => ({
        messages: [
          { role: "user", content: { type: "text", text: `Please review this ${args?.lang} code.` } },
        ],
      }),
    });
    renderApp(c);
    const box = await messageBox();
    fireEvent.change(box, { target: { value: "/docs:" } });
    const menu = await screen.findByRole("listbox", { name: "Commands" });
    expect(within(menu).getByRole("option").textContent).toContain("/docs:review <lang>");
    expect(within(menu).getByRole("option").textContent).toContain("MCP docs");
    fireEvent.keyDown(box, { key: "Enter" });

    const dialog = await screen.findByRole("dialog", { name: "/docs:review" });
    const lang = within(dialog).getByLabelText("lang (required)");
    fireEvent.change(lang, { target: { value: "ty" } });
    await waitFor(() =>
      expect(
        [...screen.getByTestId("suggestions-lang").querySelectorAll("option")].map((o) => o.value),
      ).toEqual(["typescript"]),
    );
    expect(c.callsOf("mcp.complete")).toContainEqual({
      id: "docs",
      ref: { type: "prompt", name: "review" },
      argument: { name: "lang", value: "ty" },
    });
    fireEvent.change(lang, { target: { value: "typescript" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Insert" }));
    await waitFor(() => expect(box.value).toBe("Please review this typescript code."));
    expect(c.callsOf("mcp.getPrompt")).toEqual([
      { id: "docs", name: "review", arguments: { lang: "typescript" } },
    ]);
    expect(c.callsOf("session.send")).toEqual([]);
  });

  it("a typed /docs:review opens its form instead of being sent", async () => {
    const c = client();
    renderApp(c);
    const box = await messageBox();
    await waitFor(() => expect(c.callsOf("mcp.prompts")).toHaveLength(1));
    fireEvent.change(box, { target: { value: "/docs:review" } });
    fireEvent.keyDown(box, { key: "Escape" });
    fireEvent.keyDown(box, { key: "Enter" });
    expect(await screen.findByRole("dialog", { name: "/docs:review" })).toBeTruthy();
    expect(c.callsOf("session.send")).toEqual([]);
  });
});
