// Mouse, touch and keyboard. A drag that starts on the cloth grabs it (the Grabber decides: it
// raycasts through the solver); any other drag orbits, Shift+drag pans, Alt+drag and the wheel zoom.
// Touch: one finger rotates (or grabs, like the mouse), two fingers pinch-zoom. A double-click or
// double-tap frames the cloth. Keys: Space, S, R (the contract), . one frame (pausing first when
// running), F frame, Shift+F fullscreen, P screenshot, O the cloth as an OBJ, I the HUD, ? / H / F1
// help, Esc closes the help. (K is the glTF recorder's.) They work with focus
// on any panel control but a text box (text-entry.ts).
import type { OrbitCamera } from '../camera';
import { typesText } from './text-entry';
import { wheelZoomFactor } from './wheel';

export interface Grabber {
  /** Tries to grab the cloth under the normalized device coordinates; true on a hit. */
  begin(ndcX: number, ndcY: number): Promise<boolean> | boolean;
  move(ndcX: number, ndcY: number): void;
  end(): void;
}

export interface KeyActions {
  togglePause(): void;
  /** One frame: paused, steps it; running, pauses (the next press steps). */
  stepFrame?(): void;
  toggleSphere(): void;
  reset(): void;
  frame?(): void;
  fullscreen?(): void;
  screenshot?(): void;
  obj?(): void;
  toggleHelp?(): void;
  toggleHud?(): void;
  /** Esc: closes what is open; returns whether something was. */
  escape?(): boolean;
}

/** Two taps (or clicks) at most this far apart in time (ms) and space (CSS px) are a double-tap. */
const DOUBLE_TAP_MS = 350;
const DOUBLE_TAP_PX = 24;
/** A press that moved less than this (CSS px) is a tap, not a drag. */
const TAP_SLOP_PX = 6;

type DragMode = 'grab' | 'orbit' | 'pan' | 'zoom' | 'pending';

export class Input {
  private readonly pointers = new Map<number, { x: number; y: number }>();
  private drag: DragMode | null = null;
  private pinchDistance = 0;
  private canvas: HTMLCanvasElement | null = null;
  private readonly abort = new AbortController();
  private canvasAbort: AbortController | null = null;

  private press: { x: number; y: number; moved: number } | null = null;
  private lastTap: { time: number; x: number; y: number } | null = null;

  constructor(
    private readonly camera: OrbitCamera,
    private readonly grabber: Grabber,
    private readonly keys: KeyActions,
  ) {
    window.addEventListener(
      'keydown',
      (event) => {
        if (typesText(event.target)) return;
        if (event.ctrlKey || event.metaKey) return;
        const action = this.keyAction(event);
        if (!action) return;
        // A key held down repeats: every key here is a toggle or a one-off (a held Space flipped the
        // pause on and off, a held P downloaded a PNG each repeat), so only the press acts.
        if (event.repeat) {
          event.preventDefault();
          return;
        }
        if (action() !== false) event.preventDefault();
      },
      // Capture: the panel (lil-gui) stops keydown from bubbling out of its controls.
      { signal: this.abort.signal, capture: true },
    );
  }

  /** What a key does (null: not one of ours); Esc's returns false when there was nothing to close. */
  private keyAction(event: KeyboardEvent): (() => boolean | void) | null {
    const keys = this.keys;
    if (event.key === 'Escape') return () => keys.escape?.() ?? false;
    if (event.key === '?' || event.code === 'KeyH' || event.key === 'F1') return () => keys.toggleHelp?.();
    if (event.altKey) return null;
    switch (event.code) {
      case 'KeyF':
        return event.shiftKey ? () => keys.fullscreen?.() : () => keys.frame?.();
      case 'KeyP':
        return () => keys.screenshot?.();
      case 'KeyO':
        return () => keys.obj?.();
      case 'KeyI':
        return () => keys.toggleHud?.();
      case 'Space':
        return () => keys.togglePause();
      case 'Period':
        return () => keys.stepFrame?.();
      case 'KeyS':
        return () => keys.toggleSphere();
      case 'KeyR':
        return () => keys.reset();
      default:
        return null;
    }
  }

  /** Listens on a (new) canvas; the previous one is released. */
  attach(canvas: HTMLCanvasElement): void {
    this.canvasAbort?.abort();
    this.canvasAbort = new AbortController();
    const signal = this.canvasAbort.signal;
    this.canvas = canvas;
    canvas.addEventListener('pointerdown', (event) => this.onDown(event), { signal });
    canvas.addEventListener('pointermove', (event) => this.onMove(event), { signal });
    canvas.addEventListener('pointerup', (event) => this.onUp(event), { signal });
    canvas.addEventListener('pointercancel', (event) => this.onUp(event), { signal });
    canvas.addEventListener(
      'wheel',
      (event) => {
        event.preventDefault();
        this.camera.zoom(wheelZoomFactor(event.deltaY, event.deltaMode, canvas.clientHeight));
      },
      { signal, passive: false },
    );
    canvas.addEventListener('contextmenu', (event) => event.preventDefault(), { signal });
  }

  private ndc(event: PointerEvent): [number, number] {
    const rect = this.canvas!.getBoundingClientRect();
    return [((event.clientX - rect.left) / rect.width) * 2 - 1, 1 - ((event.clientY - rect.top) / rect.height) * 2];
  }

  private async onDown(event: PointerEvent): Promise<void> {
    try {
      this.canvas!.setPointerCapture(event.pointerId); // keep the drag when the pointer leaves the canvas
    } catch {
      // a pointer the browser no longer tracks: the drag still works inside the canvas
    }
    this.canvas!.focus();
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    this.press = this.pointers.size === 1 ? { x: event.clientX, y: event.clientY, moved: 0 } : null;
    if (this.pointers.size === 2) {
      // A second finger turns any drag into a pinch.
      if (this.drag === 'grab') this.grabber.end();
      this.drag = 'zoom';
      this.pinchDistance = this.pinchSpan();
      return;
    }
    if (this.pointers.size > 2) return;
    if (event.shiftKey) this.drag = 'pan';
    else if (event.altKey) this.drag = 'zoom';
    else if (event.button === 0) {
      this.drag = 'pending';
      const hit = await this.grabber.begin(...this.ndc(event));
      if (this.drag !== 'pending') {
        if (hit) this.grabber.end(); // released (or pinched) before the pick answered
        return;
      }
      this.drag = hit ? 'grab' : 'orbit';
    } else this.drag = 'orbit';
  }

  private pinchSpan(): number {
    const [a, b] = [...this.pointers.values()];
    return Math.hypot(a.x - b.x, a.y - b.y);
  }

  private onMove(event: PointerEvent): void {
    const previous = this.pointers.get(event.pointerId);
    if (!previous) return;
    const dx = event.clientX - previous.x,
      dy = event.clientY - previous.y;
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (this.press) this.press.moved = Math.max(this.press.moved, Math.hypot(event.clientX - this.press.x, event.clientY - this.press.y));
    switch (this.drag) {
      case 'grab':
        this.grabber.move(...this.ndc(event));
        break;
      case 'orbit':
        this.camera.rotate(dx, dy);
        break;
      case 'pan':
        this.camera.pan(dx, dy, this.canvas!.clientHeight);
        break;
      case 'zoom':
        if (this.pointers.size === 2) {
          const span = this.pinchSpan();
          if (this.pinchDistance > 0 && span > 0) this.camera.zoom(this.pinchDistance / span);
          this.pinchDistance = span;
        } else this.camera.zoom(Math.exp(dy * 0.005));
        break;
      default:
        break;
    }
  }

  private onUp(event: PointerEvent): void {
    if (!this.pointers.has(event.pointerId)) return;
    this.pointers.delete(event.pointerId);
    this.tap(event);
    if (this.drag === 'grab') this.grabber.end();
    this.drag = this.pointers.size > 0 && this.drag === 'zoom' ? 'orbit' : null;
    if (this.pointers.size === 0) this.drag = null;
  }

  /** Two quick taps (clicks) in one place frame the cloth. */
  private tap(event: PointerEvent): void {
    const press = this.press;
    this.press = null;
    if (!press || press.moved > TAP_SLOP_PX || event.type !== 'pointerup') return;
    const now = performance.now();
    const last = this.lastTap;
    if (last && now - last.time < DOUBLE_TAP_MS && Math.hypot(event.clientX - last.x, event.clientY - last.y) < DOUBLE_TAP_PX) {
      this.lastTap = null;
      this.keys.frame?.();
    } else this.lastTap = { time: now, x: event.clientX, y: event.clientY };
  }

  destroy(): void {
    this.abort.abort();
    this.canvasAbort?.abort();
  }
}
