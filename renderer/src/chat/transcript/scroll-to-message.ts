/**
 * Brings an opened search hit into view and keeps it there while the transcript settles. Rows off
 * screen skip layout (`content-visibility: auto`, transcript.css) and stand in at an estimated
 * height, so one `scrollIntoView` lands where the estimates say; as rows near the view render at
 * their real heights the hit drifts away (in a long chat, out of sight). Each frame this checks
 * the hit is still in view and places it again if not, until it stayed put for a few frames or
 * the person scrolls themselves.
 */

/** Frames the hit must stay in view before the view counts as settled; and the most frames tried. */
const settledFrames = 6;
const maxFrames = 120;
const personInput = ["wheel", "pointerdown", "keydown", "touchstart"] as const;

/** Returns the function that stops following the hit (the transcript closed, or it settled). */
export function scrollToMessage(scroller: HTMLElement, target: HTMLElement): () => void {
  let frame = 0;
  let stillFor = 0;
  let handle = 0;
  const stop = () => {
    cancelAnimationFrame(handle);
    for (const type of personInput) scroller.removeEventListener(type, stop);
  };
  for (const type of personInput) scroller.addEventListener(type, stop, { passive: true });
  const place = () => {
    // A hit taller than the view shows from its start; a shorter one in the middle.
    const tall = target.offsetHeight > scroller.clientHeight;
    target.scrollIntoView({ block: tall ? "start" : "center" });
  };
  const check = () => {
    const view = scroller.getBoundingClientRect();
    const box = target.getBoundingClientRect();
    const inView = box.top < view.bottom && box.bottom > view.top;
    if (inView) stillFor += 1;
    else {
      stillFor = 0;
      place();
    }
    frame += 1;
    if (stillFor >= settledFrames || frame >= maxFrames) stop();
    else handle = requestAnimationFrame(check);
  };
  place();
  handle = requestAnimationFrame(check);
  return stop;
}
