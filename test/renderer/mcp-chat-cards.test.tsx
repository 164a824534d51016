// @vitest-environment happy-dom
/**
 * The chat's MCP cards: an approval (server, tool, description, arguments; Allow once, Always
 * allow, Deny) with "Waiting for approval" on the tool's card, progress on that card, a sampling
 * request, and an elicitation form from its schema (defaults filled; a refusal keeps it open),
 * plus URL mode; each card goes when `mcp.request.closed` says so.
 */
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type {
  McpApprovalRequest,
  McpElicitationRequest,
  McpSamplingRequest,
} from "../../electron/host/rpc/methods/mcp";
import type { HostEvent } from "../../renderer/src/api/client";
import { HermesRpcError } from "../../renderer/src/api/rpc-error";
import { chatHandlers, message, session } from "./chat-fixtures";
import { fakeClient, type Handlers } from "./fake-client";
import { renderApp } from "./render-app";

afterEach(cleanup);

const approval: McpApprovalRequest = {
  requestId: "call_1",
  sessionId: "s1",
  server: "files",
  tool: "read_text_file",
  qualifiedName: "mcp__files__read_text_file",
  description: "Read a file as text.",
  arguments: { path: "/tmp/notes/todo.txt" },
  annotations: { readOnlyHint: true },
};

const question = message({ id: "u1", role: "user", seq: 0, content: "Read my todo", turnId: "t1" });
const reply = message({
  id: "a1",
  role: "assistant",
  seq: 1,
  status: "streaming",
  turnId: "t1",
  meta: {
    toolCalls: [
      { id: "call_1", name: "mcp__files__read_text_file", arguments: '{"path":"/tmp/notes/todo.txt"}' },
    ],
  },
});

const event = (e: { type: string; session_id: string | null; payload: unknown }) => e as HostEvent;

async function openChat(overrides: Handlers = {}) {
  const client = fakeClient(
    chatHandlers({
      "session.list": () => ({ sessions: [session("s1", "Todo", 2)] }),
      "session.messages": () => ({ messages: [question, reply] }),
      "mcp.pending": () => ({ approvals: [], sampling: [], elicitations: [] }),
      ...overrides,
    }),
  );
  renderApp(client);
  fireEvent.click(await screen.findByRole("button", { name: "Todo" }));
  await screen.findByText("Read my todo");
  return client;
}

const card = (name: RegExp) => screen.getByRole("region", { name });

describe("MCP cards in the chat", () => {
  it("asks for approval with the tool's card waiting, and Allow once answers and closes it", async () => {
    const client = await openChat({ "mcp.approve": () => ({}) });
    act(() => {
      client.emit(event({ type: "mcp.approval_required", session_id: "s1", payload: approval }));
      client.emit(
        event({
          type: "mcp.tool.call",
          session_id: "s1",
          payload: { ...approval, state: "waiting_approval" },
        }),
      );
    });
    const asking = card(/files wants to run read_text_file/);
    expect(asking.textContent).toContain("Read a file as text.");
    expect(within(asking).getByLabelText("Arguments").textContent).toContain('"path": "/tmp/notes/todo.txt"');
    expect(document.querySelector(".tool-call-outcome")?.textContent).toBe("Waiting for approval");
    for (const name of ["Allow once", "Always allow", "Deny"]) {
      expect(within(asking).getByRole("button", { name })).toBeTruthy();
    }

    fireEvent.click(within(asking).getByRole("button", { name: "Allow once" }));
    await waitFor(() => expect(screen.queryByRole("region", { name: /wants to run/ })).toBeNull());
    expect(client.callsOf("mcp.approve")).toEqual([{ requestId: "call_1", decision: "once" }]);

    act(() => {
      client.emit(
        event({ type: "mcp.tool.call", session_id: "s1", payload: { ...approval, state: "running" } }),
      );
      client.emit(
        event({
          type: "mcp.tool.progress",
          session_id: "s1",
          payload: { requestId: "call_1", progress: 3, total: 4, message: "reading" },
        }),
      );
    });
    expect(document.querySelector(".tool-call-outcome")?.textContent).toBe("Running…");
    expect(screen.getByTestId("mcp-progress").textContent).toContain("75% · reading");
  });

  it("Deny and Always allow send their decision; an approval of another chat stays out of this one", async () => {
    const client = await openChat({ "mcp.approve": () => ({}) });
    act(() => {
      client.emit(event({ type: "mcp.approval_required", session_id: "s1", payload: approval }));
      client.emit(
        event({
          type: "mcp.approval_required",
          session_id: "s2",
          payload: { ...approval, requestId: "call_9", sessionId: "s2" },
        }),
      );
    });
    expect(screen.getAllByRole("region", { name: /wants to run/ })).toHaveLength(1);
    fireEvent.click(within(card(/wants to run/)).getByRole("button", { name: "Deny" }));
    await waitFor(() =>
      expect(client.callsOf("mcp.approve")).toEqual([{ requestId: "call_1", decision: "deny" }]),
    );

    act(() =>
      client.emit(
        event({
          type: "mcp.approval_required",
          session_id: "s1",
          payload: { ...approval, requestId: "call_2" },
        }),
      ),
    );
    fireEvent.click(within(card(/wants to run/)).getByRole("button", { name: "Always allow" }));
    await waitFor(() =>
      expect(client.callsOf("mcp.approve")).toContainEqual({ requestId: "call_2", decision: "always" }),
    );
  });

  it("a request closed elsewhere (Stop, timeout) leaves the chat; an already-answered one just goes", async () => {
    const client = await openChat({
      "mcp.approve": () => {
        throw new HermesRpcError("not_found", "No such request: it was answered or timed out.");
      },
    });
    act(() => client.emit(event({ type: "mcp.approval_required", session_id: "s1", payload: approval })));
    act(() =>
      client.emit(
        event({
          type: "mcp.request.closed",
          session_id: null,
          payload: { requestId: "call_1", kind: "approval", outcome: "denied" },
        }),
      ),
    );
    expect(screen.queryByRole("region", { name: /wants to run/ })).toBeNull();

    act(() =>
      client.emit(
        event({
          type: "mcp.approval_required",
          session_id: "s1",
          payload: { ...approval, requestId: "call_3" },
        }),
      ),
    );
    fireEvent.click(within(card(/wants to run/)).getByRole("button", { name: "Allow once" }));
    await waitFor(() => expect(screen.queryByRole("region", { name: /wants to run/ })).toBeNull());
  });

  it("shows a pending approval read from mcp.pending when the window opens", async () => {
    await openChat({ "mcp.pending": () => ({ approvals: [approval], sampling: [], elicitations: [] }) });
    expect(await screen.findByRole("region", { name: /files wants to run read_text_file/ })).toBeTruthy();
  });

  it("shows what a sampling request asks (from whichever chat) and answers Approve", async () => {
    const client = await openChat({ "mcp.sampling.respond": () => ({}) });
    const sampling: McpSamplingRequest = {
      requestId: "smp_1",
      server: "everything",
      // Another chat's tool call led to it: it shows in the open chat all the same.
      sessionId: "s2",
      messages: [{ role: "user", text: "Write a haiku about files" }],
      systemPrompt: "You are terse.",
      maxTokens: 100,
      model: "local · qwen3-8b",
    };
    act(() => client.emit(event({ type: "mcp.sampling_requested", session_id: null, payload: sampling })));
    const asking = card(/everything asks for a completion/);
    expect(asking.textContent).toContain("local · qwen3-8b, up to 100 tokens");
    expect(within(asking).getByLabelText("System prompt").textContent).toBe("You are terse.");
    expect(within(asking).getByRole("list", { name: "Messages" }).textContent).toContain(
      "Write a haiku about files",
    );
    fireEvent.click(within(asking).getByRole("button", { name: "Approve" }));
    await waitFor(() => expect(screen.queryByRole("region", { name: /asks for a completion/ })).toBeNull());
    expect(client.callsOf("mcp.sampling.respond")).toEqual([{ requestId: "smp_1", decision: "approve" }]);
  });

  it("builds an elicitation form with its defaults; a refused answer stays open with the host's error", async () => {
    let refuse = true;
    const client = await openChat({
      "mcp.elicitation.respond": () => {
        if (refuse) {
          refuse = false;
          throw new HermesRpcError("invalid_params", "age must be at least 18", { key: "age" });
        }
        return {};
      },
    });
    const elicitation: McpElicitationRequest = {
      requestId: "eli_1",
      server: "everything",
      sessionId: "s1",
      mode: "form",
      message: "Tell us about you",
      requestedSchema: {
        type: "object",
        properties: {
          name: { type: "string", title: "Name", default: "Ada" },
          age: { type: "integer", title: "Age", minimum: 18 },
          color: { type: "string", title: "Colour", enum: ["red", "blue"], default: "blue" },
          subscribe: { type: "boolean", title: "Subscribe", default: true },
        },
        required: ["name", "age"],
      },
    };
    act(() =>
      client.emit(event({ type: "mcp.elicitation_requested", session_id: null, payload: elicitation })),
    );
    const asking = card(/everything asks you/);
    expect(asking.textContent).toContain("Tell us about you");
    expect((within(asking).getByLabelText("Name (required)") as HTMLInputElement).value).toBe("Ada");
    expect((within(asking).getByLabelText("Colour") as HTMLSelectElement).value).toBe("blue");
    expect((within(asking).getByLabelText("Subscribe") as HTMLInputElement).checked).toBe(true);
    fireEvent.change(within(asking).getByLabelText("Age (required)"), { target: { value: "12" } });
    fireEvent.click(within(asking).getByRole("button", { name: "Submit" }));
    expect(await within(asking).findByText("age must be at least 18")).toBeTruthy();
    expect((within(asking).getByLabelText("Age (required)") as HTMLInputElement).value).toBe("12");

    fireEvent.change(within(asking).getByLabelText("Age (required)"), { target: { value: "30" } });
    fireEvent.click(within(asking).getByRole("button", { name: "Submit" }));
    await waitFor(() => expect(screen.queryByRole("region", { name: /asks you/ })).toBeNull());
    expect(client.callsOf("mcp.elicitation.respond")).toEqual([
      {
        requestId: "eli_1",
        action: "accept",
        content: { name: "Ada", age: 12, color: "blue", subscribe: true },
      },
      {
        requestId: "eli_1",
        action: "accept",
        content: { name: "Ada", age: 30, color: "blue", subscribe: true },
      },
    ]);
  });

  it("URL mode shows the URL with Open (accept), and Decline answers decline", async () => {
    const client = await openChat({ "mcp.elicitation.respond": () => ({}) });
    const open = vi.spyOn(window, "open").mockReturnValue(null);
    const url: McpElicitationRequest = {
      requestId: "eli_2",
      server: "remote",
      sessionId: null,
      mode: "url",
      message: "Sign in to continue",
      url: "https://auth.example.com/start",
    };
    act(() => client.emit(event({ type: "mcp.elicitation_requested", session_id: null, payload: url })));
    const asking = card(/remote asks you/);
    expect(asking.textContent).toContain("https://auth.example.com/start");
    fireEvent.click(within(asking).getByRole("button", { name: "Open" }));
    await waitFor(() => expect(screen.queryByRole("region", { name: /asks you/ })).toBeNull());
    expect(open).toHaveBeenCalledWith("https://auth.example.com/start", "_blank", "noopener,noreferrer");
    expect(client.callsOf("mcp.elicitation.respond")).toEqual([{ requestId: "eli_2", action: "accept" }]);
    open.mockRestore();

    act(() =>
      client.emit(
        event({
          type: "mcp.elicitation_requested",
          session_id: null,
          payload: { ...url, requestId: "eli_3" },
        }),
      ),
    );
    fireEvent.click(within(card(/remote asks you/)).getByRole("button", { name: "Decline" }));
    await waitFor(() =>
      expect(client.callsOf("mcp.elicitation.respond")).toContainEqual({
        requestId: "eli_3",
        action: "decline",
      }),
    );
  });

  it("shows a result's images and links on the tool's card, and a denial as Denied", async () => {
    const done = message({
      id: "r1",
      role: "tool",
      seq: 2,
      turnId: "t1",
      content: "Here is the picture.",
      meta: {
        toolCallId: "call_1",
        toolStatus: "ok",
        // As the host stores them: on the tool message, where the model's request finds them too.
        toolImages: [{ mimeType: "image/png", data: "iVBORw0KGgo=" }],
        mcp: {
          state: "done",
          links: [
            { uri: "https://example.com/spec", name: "The spec" },
            { uri: "file:///tmp/notes/todo.txt", name: "todo.txt" },
          ],
        },
      },
    });
    const denied = message({
      id: "r2",
      role: "tool",
      seq: 4,
      turnId: "t1",
      content: "The user denied this tool call.",
      meta: { toolCallId: "call_2", toolStatus: "blocked", mcp: { state: "denied" } },
    });
    const second = message({
      id: "a2",
      role: "assistant",
      seq: 3,
      turnId: "t1",
      meta: { toolCalls: [{ id: "call_2", name: "mcp__files__write_file", arguments: "{}" }] },
    });
    await openChat({
      "session.messages": () => ({
        messages: [question, { ...reply, status: "complete" }, done, second, denied],
      }),
    });
    const image = await screen.findByRole("img", { name: "Image 1 from mcp__files__read_text_file" });
    expect(image.getAttribute("src")).toBe("data:image/png;base64,iVBORw0KGgo=");
    const links = screen.getByRole("list", { name: "Links from mcp__files__read_text_file" });
    const web = within(links).getByRole("link", { name: "The spec" });
    expect(web.getAttribute("href")).toBe("https://example.com/spec");
    expect(web.getAttribute("rel")).toContain("noopener");
    expect(links.textContent).toContain("file:///tmp/notes/todo.txt");
    const outcomes = [...document.querySelectorAll(".tool-call-outcome")].map((e) => e.textContent);
    expect(outcomes).toEqual(["Done", "Denied"]);
  });
});
