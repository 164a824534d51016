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
  "host.info": method<EmptyParams, HostInfo>(noParams),
};
