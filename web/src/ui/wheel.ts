// The wheel's zoom, whatever unit the browser counts the wheel in. Chromium and Safari report
// pixels (about 100 a notch); Firefox reports lines for a mouse wheel (3 a notch) and pages when set
// to scroll page-wise. Read as pixels, a Firefox notch zoomed by 0.3% (a wheel that did nothing).

/** WheelEvent.deltaMode's units (the DOM constants; Node has no WheelEvent). */
const DOM_DELTA_LINE = 1;
const DOM_DELTA_PAGE = 2;
/** A line of wheel scrolling in pixels: a 3-line Firefox notch zooms as a 100 px Chromium notch. */
export const WHEEL_LINE_PX = 100 / 3;
/** Zoom per pixel of wheel: the distance × e^(0.001 · px). */
const ZOOM_PER_PX = 0.001;

/** The factor a wheel event of `deltaY` in `deltaMode` units scales the camera's distance by (a page: `pagePx`). */
export function wheelZoomFactor(deltaY: number, deltaMode: number, pagePx: number): number {
  const px = deltaMode === DOM_DELTA_LINE ? deltaY * WHEEL_LINE_PX : deltaMode === DOM_DELTA_PAGE ? deltaY * pagePx : deltaY;
  return Math.exp(px * ZOOM_PER_PX);
}
