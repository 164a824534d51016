import { eventTopicPattern } from "../events.js";
import { Type, type Static } from "@sinclair/typebox";
import { method, params } from "../define.js";

const eventsSubscribeParams = params({
  /** `session:<id>`, `sessions`, `plugin:<id>`, `settings`, `mcp` (`host` notices always arrive). */
  topics: Type.Array(Type.String({ pattern: eventTopicPattern }), { maxItems: 1000 }),
});
export type EventsSubscribeParams = Static<typeof eventsSubscribeParams>;

export const eventMethods = {
  /**
   * From now on this connection receives only these topics' events (docs/contract.md §11); a
   * connection that never subscribes receives every event. Calling it again replaces the set.
   */
  "events.subscribe": method(eventsSubscribeParams).returns<{ topics: string[] }>(),
};
