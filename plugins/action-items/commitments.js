// Decides, cheaply and without a model call, whether a reply made commitments worth a fork:
// explicit markers ("action items", "next steps", "to-do", "follow up", "deadline", "due by",
// a Markdown checklist "- [ ]"), or a promise ("I'll", "we will", "I'm going to", "you need to")
// in the same sentence as a time ("by Friday", "tomorrow", "next week", "by 5pm", "by 2026-12-01").
// False positives cost one small fork; false negatives cost nothing but a missed card.

const MARKERS =
  /\b(action items?|next steps?|to-?dos?|follow[- ]ups?|deadlines?|due (on|by)|assigned to)\b|^\s*[-*] \[ \]/im;
const PROMISE =
  /\b(i['’]ll|i will|we['’]ll|we will|i['’]m going to|we['’]re going to|i shall|you['’]ll need to|you need to|remember to)\b/i;
const WHEN =
  /\b(today|tonight|tomorrow|this (morning|afternoon|evening|week)|next (week|month|monday|tuesday|wednesday|thursday|friday)|by (monday|tuesday|wednesday|thursday|friday|saturday|sunday|noon|eod|eow|the end of (the )?(day|week|month)|end of (the )?(day|week|month)|\d{1,2}(:\d{2})?\s?(am|pm)|\d{4}-\d{2}-\d{2}|(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}))\b/i;

/** @param {unknown} reply */
export function hasCommitments(reply) {
  if (typeof reply !== "string" || reply.trim() === "") return false;
  if (MARKERS.test(reply)) return true;
  return reply.split(/(?<=[.!?])\s+|\n+/).some((sentence) => PROMISE.test(sentence) && WHEN.test(sentence));
}
