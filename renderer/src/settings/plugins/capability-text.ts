/**
 * The words for each capability come from the contract's one table (the host guards the same
 * words); an unknown id (a newer host) falls back to the raw id.
 */
import {
  CAPABILITY_WORDS,
  type CapabilityWords,
  type ContractCapabilityId,
} from "../../../../electron/host/rpc/shared-rules/capability-text.js";

export type CapabilityText = CapabilityWords;

export function describeCapability(id: string): CapabilityText {
  return Object.prototype.hasOwnProperty.call(CAPABILITY_WORDS, id)
    ? CAPABILITY_WORDS[id as ContractCapabilityId]
    : { label: id, description: "A capability this version of Hermes Desktop does not know." };
}
