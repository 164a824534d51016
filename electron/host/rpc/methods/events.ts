import { eventTopicPattern } from "../events.js";
import { method } from "../define.js";

export interface EventsSubscribeParams {
  /** `session:<id>`, `sessions`, `plugin:<id>`, `settings`, `mcp` (`host` notices always arrive). */
  topics: string[];
}

export const eventMethods = {
  /**
   * From now on this connection receives only these topics' events (docs/contract.md §11); a
   * connection that never subscribes receives every event. Calling it again replaces the set.
   */
  "events.subscribe": method<EventsSubscribeParams, { topics: string[] }>({
    type: "object",
    additionalProperties: false,
    required: ["topics"],
    properties: {
      topics: {
        type: "array",
        maxItems: 1000,
        items: { type: "string", pattern: eventTopicPattern },
      },
    },
  }),
};
