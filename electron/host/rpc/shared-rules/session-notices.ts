/**
 * The kinds of notice a session's transcript carries (`meta.notice` of a `notice` message) that the
 * renderer shows as a card of its own: the host writes them, the UI picks them out by the same name.
 */
export const MEMORY_PROPOSAL_NOTICE = "memory_proposal";
