// The record controls: a button and the K key start and stop a recording of the cloth into a .glb,
// another and Shift+K into an OBJ sequence (a .zip of weft run's files; record.ts); the badge beside
// the HUD says it is recording and for how long; when it stops (pressed again, or the length limit)
// the file is offered as a download.
import type { RecordFormat, Recorded, Recorder } from '../record';
import type { Messages } from './messages';
import { typesText } from './text-entry';

/** Each format's file: what it is called in the messages, its extension and MIME type, its button. */
const FORMATS: Record<RecordFormat, { what: string; extension: string; type: string; id: string; label: string; key: string }> = {
  glb: { what: 'a .glb', extension: '.glb', type: 'model/gltf-binary', id: 'record', label: '● record', key: 'K' },
  obj: {
    what: 'an OBJ sequence (.zip)',
    extension: '-obj.zip',
    type: 'application/zip',
    id: 'record-obj',
    label: '● OBJ seq',
    key: 'Shift+K',
  },
};

export class RecordButton {
  private readonly buttons = { glb: document.createElement('button'), obj: document.createElement('button') };
  private readonly badge = document.createElement('div');
  private busy = false;
  private recordingName: string | null = null; // the file name, fixed when the recording starts

  constructor(
    private readonly recorder: Recorder,
    private readonly messages: Messages,
    /** The download's name without its extension (weft-sphere). */
    private readonly fileName: () => string,
    place: (button: HTMLButtonElement) => void,
    /** Whether the cloth is paused (a recording then waits for it to run). */
    private readonly paused: () => boolean = () => false,
  ) {
    for (const format of ['glb', 'obj'] as const) {
      const button = this.buttons[format],
        f = FORMATS[format];
      button.id = f.id;
      button.type = 'button';
      button.title = `Record the cloth into ${f.what} (${f.key})`;
      button.setAttribute('aria-label', button.title);
      button.addEventListener('click', () => void this.toggle(format));
    }
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
    place(this.buttons.glb);
    place(this.buttons.obj);
    document.body.append(this.badge);
    // Capture: the panel (lil-gui) stops keydown from bubbling out of its controls.
    document.addEventListener(
      'keydown',
      (event) => {
        if (typesText(event.target)) return;
        if (event.ctrlKey || event.metaKey || event.altKey || event.code !== 'KeyK') return;
        event.preventDefault();
        if (!event.repeat) void this.toggle(event.shiftKey ? 'obj' : 'glb'); // a held K would start and stop by turns
      },
      { capture: true },
    );
    recorder.onStopped = (result, reason) => this.offer(result, `stopped: ${reason}`);
    this.refresh();
  }

  /** Starts a recording into `format`, or stops the one in progress whatever its format (the
   *  buttons, K and Shift+K). */
  async toggle(format: RecordFormat = 'glb'): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      if (this.recorder.active) this.offer(await this.recorder.stop(), 'stopped');
      else {
        await this.recorder.start(undefined, format);
        const f = FORMATS[format];
        this.recordingName = this.fileName() + f.extension; // the scene recorded, not the one running when it stops
        const limit = this.recorder.capacity * this.recorder.frameDt;
        const waiting = this.paused() ? ' The cloth is paused: frames are recorded while it runs (Space).' : '';
        this.messages.show(
          `Recording the cloth into ${f.what} (at most ${limit.toFixed(0)} s): press ${f.key} (or the button) again to stop.${waiting}`,
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
    for (const format of ['glb', 'obj'] as const) {
      const label = this.recorder.format === format ? '■ stop' : FORMATS[format].label;
      if (this.buttons[format].textContent !== label) this.buttons[format].textContent = label;
    }
    this.badge.hidden = !active;
    const badge = active ? `● REC ${this.recorder.seconds.toFixed(1)} s (${this.recorder.frames} frames)` : '';
    if (this.badge.textContent !== badge) this.badge.textContent = badge;
  }

  private offer(result: Recorded | null, how: string): void {
    this.refresh();
    if (!result) return;
    const name = this.recordingName ?? this.fileName() + FORMATS.glb.extension;
    this.recordingName = null;
    const type = name.endsWith(FORMATS.obj.extension) ? FORMATS.obj.type : FORMATS.glb.type;
    // Stopped before a single frame ran (paused all along, or reset at once): a file of the rest pose
    // alone, with no animation, is not worth a download.
    if (result.frames === 0) {
      this.messages.show(`Recording ${how} before the cloth ran a frame: nothing to download.`, 'info', 'record');
      return;
    }
    const url = URL.createObjectURL(new Blob([result.bytes as BlobPart], { type }));
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
