// The record control: a button and the K key start and stop a recording of the cloth (record.ts);
// the badge beside the HUD says it is recording and for how long; when it stops (pressed again, or
// the length limit) the .glb is offered as a download.
import type { Recorded, Recorder } from '../record';
import type { Messages } from './messages';
import { typesText } from './text-entry';

export class RecordButton {
  private readonly button = document.createElement('button');
  private readonly badge = document.createElement('div');
  private busy = false;
  private recordingName: string | null = null; // the file name, fixed when the recording starts

  constructor(
    private readonly recorder: Recorder,
    private readonly messages: Messages,
    private readonly fileName: () => string,
    place: (button: HTMLButtonElement) => void,
    /** Whether the cloth is paused (a recording then waits for it to run). */
    private readonly paused: () => boolean = () => false,
  ) {
    this.button.id = 'record';
    this.button.type = 'button';
    this.button.title = 'Record the cloth into a .glb (K)';
    this.button.setAttribute('aria-label', this.button.title);
    this.badge.id = 'recording';
    this.badge.hidden = true;
    // Top centre, beside the HUD (top left) and clear of the panel (top right).
    Object.assign(this.badge.style, {
      position: 'fixed',
      left: '50%',
      top: '8px',
      transform: 'translateX(-50%)',
      font: '12px ui-monospace, monospace',
      color: '#fff',
      background: 'rgba(200, 30, 30, 0.85)',
      padding: '2px 8px',
      borderRadius: '3px',
      pointerEvents: 'none',
    });
    place(this.button);
    document.body.append(this.badge);
    this.button.addEventListener('click', () => void this.toggle());
    // Capture: the panel (lil-gui) stops keydown from bubbling out of its controls.
    document.addEventListener(
      'keydown',
      (event) => {
        if (typesText(event.target)) return;
        if (event.ctrlKey || event.metaKey || event.altKey || event.code !== 'KeyK') return;
        event.preventDefault();
        if (!event.repeat) void this.toggle(); // a held K would start and stop by turns
      },
      { capture: true },
    );
    recorder.onStopped = (result, reason) => this.offer(result, `stopped: ${reason}`);
    this.refresh();
  }

  /** Starts or stops (the button, K). */
  async toggle(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      if (this.recorder.active) this.offer(await this.recorder.stop(), 'stopped');
      else {
        await this.recorder.start();
        this.recordingName = this.fileName(); // the scene recorded, not the one running when it stops
        const limit = this.recorder.capacity * this.recorder.frameDt;
        const waiting = this.paused() ? ' The cloth is paused: frames are recorded while it runs (Space).' : '';
        this.messages.show(
          `Recording the cloth into a .glb (at most ${limit.toFixed(0)} s): press K (or the button) again to stop.${waiting}`,
          'info',
          'record',
        );
      }
    } catch (error) {
      this.messages.show(`Could not record: ${(error as Error).message}.`, 'warning', 'record');
    } finally {
      this.busy = false;
      this.refresh();
    }
  }

  /** Redraws the button and the badge (call every frame: the badge shows the time recorded). */
  refresh(): void {
    const active = this.recorder.active;
    const label = active ? '■ stop' : '● record';
    if (this.button.textContent !== label) this.button.textContent = label;
    this.badge.hidden = !active;
    const badge = active ? `● REC ${this.recorder.seconds.toFixed(1)} s (${this.recorder.frames} frames)` : '';
    if (this.badge.textContent !== badge) this.badge.textContent = badge;
  }

  private offer(result: Recorded | null, how: string): void {
    this.refresh();
    if (!result) return;
    const name = this.recordingName ?? this.fileName();
    this.recordingName = null;
    // Stopped before a single frame ran (paused all along, or reset at once): a file of the rest pose
    // alone, with no animation, is not worth a download.
    if (result.frames === 0) {
      this.messages.show(`Recording ${how} before the cloth ran a frame: nothing to download.`, 'info', 'record');
      return;
    }
    const url = URL.createObjectURL(new Blob([result.bytes as BlobPart], { type: 'model/gltf-binary' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    this.messages.show(
      `Recording ${how}: ${result.frames} frames, ${result.seconds.toFixed(1)} s, ${(result.bytes.length / 2 ** 20).toFixed(1)} MiB, downloaded as ${name}.`,
      'info',
      'record',
    );
  }
}
