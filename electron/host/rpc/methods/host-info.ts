import { method, noParams, type EmptyParams } from "../define.js";

export interface Notice {
  kind: string;
  message: string;
}

export interface HostInfo {
  version: string;
  mode: "desktop" | "web";
  home: string;
  notices: Notice[];
}

export const hostMethods = {
  "host.info": method(noParams).returns<HostInfo>(),
  /**
   * The window is interactive (its chat input usable, the session list loaded): the host starts
   * what waits for that — MCP servers (docs/contract.md §13.2). Idempotent; a host no window
   * tells within 30 s starts them anyway.
   */
  "host.interactive": method(noParams).returns<EmptyParams>(),
};
