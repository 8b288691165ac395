// Mouse, touch and keyboard. A drag that starts on the cloth grabs it (the Grabber decides: it
// raycasts through the solver); any other drag orbits, Shift+drag pans, Alt+drag and the wheel zoom.
// Touch: one finger rotates (or grabs, like the mouse), two fingers pinch-zoom.
import type { OrbitCamera } from '../camera';

export interface Grabber {
  /** Tries to grab the cloth under the normalized device coordinates; true on a hit. */
  begin(ndcX: number, ndcY: number): Promise<boolean> | boolean;
  move(ndcX: number, ndcY: number): void;
  end(): void;
}

export interface KeyActions {
  togglePause(): void;
  toggleSphere(): void;
  reset(): void;
}

type DragMode = 'grab' | 'orbit' | 'pan' | 'zoom' | 'pending';

export class Input {
  private readonly pointers = new Map<number, { x: number; y: number }>();
  private drag: DragMode | null = null;
  private pinchDistance = 0;
  private canvas: HTMLCanvasElement | null = null;
  private readonly abort = new AbortController();
  private canvasAbort: AbortController | null = null;

  constructor(
    private readonly camera: OrbitCamera,
    private readonly grabber: Grabber,
    keys: KeyActions,
  ) {
    window.addEventListener(
      'keydown',
      (event) => {
        const target = event.target as HTMLElement | null;
        if (target && (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA')) return;
        if (event.ctrlKey || event.metaKey) return;
        if (event.code === 'Space') {
          event.preventDefault();
          keys.togglePause();
        } else if (event.code === 'KeyS') {
          keys.toggleSphere();
        } else if (event.code === 'KeyR') {
          keys.reset();
        }
      },
      { signal: this.abort.signal },
    );
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
        this.camera.zoom(Math.exp(event.deltaY * 0.001));
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
    this.pointers.delete(event.pointerId);
    if (this.drag === 'grab') this.grabber.end();
    this.drag = this.pointers.size > 0 && this.drag === 'zoom' ? 'orbit' : null;
    if (this.pointers.size === 0) this.drag = null;
  }

  destroy(): void {
    this.abort.abort();
    this.canvasAbort?.abort();
  }
}
