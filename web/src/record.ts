// Recording the running cloth into a .glb: the core's glTF writer (src/gltf_writer.c, the same code
// as `weft run --export FILE.glb`) writes into a buffer in wasm memory (wasm/weft_wasm_gltf.c), one
// frame after each simulated frame; finish() copies the file out once. Or into an OBJ sequence, as
// `weft run --export DIR` writes one: the core's OBJ text of the cloth after each frame
// (cloth_0001.obj, ...), the colliders as they are at the end (collider.obj), in a .zip (zip.ts).
//
// The recorder drives App through two seams only: App.exclusive (work that runs between frames,
// never during one) and App.afterFrame (called after each simulated frame while set; App then
// steps frame by frame). It reads the core world, so it needs the wasm solver.
import type { App } from './app';
import type { WeftWorld } from './core/world';
import { zipStored } from './zip';

/** What a recording writes: one .glb (the cloth animated by morph targets), or OBJ files in a .zip. */
export type RecordFormat = 'glb' | 'obj';

/** Most frames one recording may hold: 60 s at the scenes' 60 frames per second. */
export const MAX_RECORD_FRAMES = 3600;
/** Most bytes a live recording may grow to in wasm memory (a big cloth records for less long). */
export const MAX_RECORD_BYTES = 2 ** 30;

/**
 * Frames a live recording of `particles` particles may hold: at most MAX_RECORD_FRAMES, and few
 * enough that the file (24 bytes a particle a frame, plus the frames² weights track) stays under
 * MAX_RECORD_BYTES.
 */
export function recordingLimit(particles: number): number {
  const perFrame = 24 * particles;
  const frames = Math.floor((-perFrame + Math.sqrt(perFrame * perFrame + 16 * MAX_RECORD_BYTES)) / 8);
  return Math.max(1, Math.min(MAX_RECORD_FRAMES, frames));
}

/** Most bytes an OBJ sequence's files may add up to (the page holds them until the .zip is made). */
export const MAX_OBJ_SEQUENCE_BYTES = 2 ** 30;

/** A recording of one core world's frames. */
interface Recording {
  readonly world: WeftWorld;
  readonly capacity: number;
  /** Frames recorded (the pose it started from not counted). */
  readonly frames: number;
  /** The world's frame when the last frame (or the starting pose) was recorded. */
  lastFrame: number;
  /** Adds the world's current state; throws with the reason. */
  add(): void;
  /** The finished file; the recording is gone afterwards. */
  finish(): Uint8Array;
  destroy(): void;
}

/** A .glb being written in wasm memory from one core world. */
class GltfRecording implements Recording {
  private handle: number;

  constructor(
    readonly world: WeftWorld,
    readonly capacity: number,
  ) {
    const e = world.core.exports;
    this.handle = e.gltf_record_begin(world.coreHandle, capacity, 1, 1);
    if (!this.handle) throw new Error(world.core.lastError() || 'could not start the recording');
    this.lastFrame = world.frame;
  }

  get frames(): number {
    return this.handle ? this.world.core.exports.gltf_record_frames(this.handle) : 0;
  }

  /** The world's frame when the last frame (or the base pose) was recorded. */
  lastFrame: number;

  /** Adds the world's current state; throws with the core's reason. */
  add(): void {
    const e = this.world.core.exports;
    if (e.gltf_record_add(this.handle, this.world.coreHandle) !== 0) throw new Error(this.world.core.lastError());
    this.lastFrame = this.world.frame;
  }

  /** The finished .glb (a copy out of wasm memory); the recording is gone afterwards. */
  finish(): Uint8Array {
    const core = this.world.core;
    const e = core.exports;
    try {
      if (e.gltf_record_finish(this.handle) !== 0) throw new Error(core.lastError());
      return new Uint8Array(core.memory, e.gltf_record_bytes(this.handle), e.gltf_record_size(this.handle)).slice();
    } finally {
      this.destroy();
    }
  }

  destroy(): void {
    if (this.handle) this.world.core.exports.gltf_record_destroy(this.handle);
    this.handle = 0;
  }
}

/** The cloth's OBJ text after frame `frame` of the world (its header names the frame and time). */
function clothObj(world: WeftWorld): Uint8Array {
  return new TextEncoder().encode(world.objText('cloth', { frame: world.frame, time: world.frame * world.frameDt }));
}

/**
 * Frames an OBJ sequence of the world's cloth may hold: at most MAX_RECORD_FRAMES, and few enough
 * that the files, each about the size of the cloth's OBJ now (a tenth more for longer numbers),
 * stay under MAX_OBJ_SEQUENCE_BYTES (a 128² cloth's OBJ is about 1.6 MB: 600 frames, 10 s).
 */
export function objSequenceLimit(world: WeftWorld): number {
  const perFrame = 1.1 * clothObj(world).length;
  return Math.max(1, Math.min(MAX_RECORD_FRAMES, Math.floor(MAX_OBJ_SEQUENCE_BYTES / perFrame)));
}

/** An OBJ sequence kept in the page's memory, one file a frame, zipped when it finishes. */
class ObjSequenceRecording implements Recording {
  private files: Uint8Array[] = [];
  private bytes = 0;
  /** The colliders at the last frame recorded (taken again each frame where a sphere may move), so
   *  that finishing never reads the world: a rebuild ends the recording after replacing it. */
  private colliders = new Uint8Array(0);
  lastFrame: number;

  constructor(
    readonly world: WeftWorld,
    readonly capacity: number,
  ) {
    this.lastFrame = world.frame;
  }

  get frames(): number {
    return this.files.length;
  }

  add(): void {
    const file = clothObj(this.world);
    if (this.bytes + file.length > MAX_OBJ_SEQUENCE_BYTES) throw new Error(`the OBJ files reached ${MAX_OBJ_SEQUENCE_BYTES / 2 ** 20} MiB`);
    this.files.push(file);
    this.bytes += file.length;
    if (this.files.length === 1 || this.world.sphereCount > 0) this.colliders = new TextEncoder().encode(this.world.objText('colliders'));
    this.lastFrame = this.world.frame;
  }

  /** cloth_0001.obj … (wider numbers where the last frame needs them, so the names sort as the
   *  frames: weft run's names), then collider.obj. */
  finish(): Uint8Array {
    const digits = Math.max(4, String(this.files.length).length);
    const entries = this.files.map((bytes, i) => ({ name: `cloth_${String(i + 1).padStart(digits, '0')}.obj`, bytes }));
    entries.push({ name: 'collider.obj', bytes: this.colliders });
    this.destroy();
    return zipStored(entries);
  }

  destroy(): void {
    this.files = [];
    this.bytes = 0;
  }
}

/** What a finished recording gave. */
export interface Recorded {
  bytes: Uint8Array;
  frames: number;
  seconds: number;
}

export class Recorder {
  private recording: Recording | null = null;
  /** Called when a live recording ends by itself (full, the world replaced, a write failure). */
  onStopped: ((result: Recorded | null, reason: string) => void) | null = null;

  constructor(private readonly app: App) {}

  get active(): boolean {
    return this.recording !== null;
  }

  /** What the recording in progress writes (null when none is). */
  get format(): RecordFormat | null {
    return this.recording instanceof ObjSequenceRecording ? 'obj' : this.recording ? 'glb' : null;
  }

  /** Seconds recorded so far (frames × the scene's frame time). */
  get seconds(): number {
    return this.recording ? this.recording.frames * this.recording.world.frameDt : 0;
  }

  get frames(): number {
    return this.recording?.frames ?? 0;
  }

  /** Frames the recording may hold, and the seconds of one (0 when not recording). */
  get capacity(): number {
    return this.recording?.capacity ?? 0;
  }

  get frameDt(): number {
    return this.recording?.world.frameDt ?? 0;
  }

  /** Starts recording the frames the app simulates from now on (at most maxFrames; by default as many
   *  as the format's limit allows: recordingLimit, objSequenceLimit). */
  start(maxFrames?: number, format: RecordFormat = 'glb'): Promise<void> {
    return this.app.exclusive(() => {
      this.begin(maxFrames, format);
      this.app.afterFrame = () => this.afterFrame();
    });
  }

  /** Stops and returns the .glb (null when nothing was recording). */
  stop(): Promise<Recorded | null> {
    return this.app.exclusive(() => this.end());
  }

  /** Simulates exactly `frames` frames (paused or not) into a fresh recording and returns its file
   *  (the .glb, or the .zip of the OBJ sequence). */
  record(frames: number, format: RecordFormat = 'glb'): Promise<Uint8Array> {
    return this.app.exclusive(async () => {
      this.begin(frames, format);
      try {
        for (let i = 0; i < frames; i++) {
          await this.app.solver.step(1);
          this.recording!.add();
        }
      } catch (error) {
        this.recording?.destroy();
        this.recording = null;
        throw error;
      }
      return this.end()!.bytes;
    });
  }

  /** A fresh recording of `requested` frames (undefined: as many as the format's limit allows). */
  private begin(requested: number | undefined, format: RecordFormat): void {
    if (this.recording) throw new Error('already recording');
    format = String(format).toLowerCase() as RecordFormat; // 'OBJ' too
    if (format !== 'glb' && format !== 'obj')
      throw new Error(`a recording is a .glb or an OBJ sequence ('glb' or 'obj'; got ${String(format)})`);
    if (this.app.solver.kind !== 'wasm') throw new Error('recording reads the C core (wasm) solver; switch the solver to wasm');
    const world = this.app.solver.world;
    // The OBJ sequence's limit writes the cloth's OBJ once to size it: worked out once a recording.
    const most = format === 'obj' ? objSequenceLimit(world) : recordingLimit(world.particleCount);
    const capacity = requested ?? most;
    if (!Number.isInteger(capacity) || capacity < 1 || capacity > MAX_RECORD_FRAMES) {
      throw new Error(`a recording holds 1..${MAX_RECORD_FRAMES} frames (got ${capacity})`);
    }
    if (format === 'obj') {
      if (capacity > most)
        throw new Error(`an OBJ sequence of this cloth holds at most ${most} frames (${MAX_OBJ_SEQUENCE_BYTES / 2 ** 20} MiB)`);
      this.recording = new ObjSequenceRecording(world, capacity);
    } else this.recording = new GltfRecording(world, capacity);
  }

  private afterFrame(): void {
    const recording = this.recording;
    if (!recording) return;
    let reason: string | null = null;
    if (this.app.solver.world !== recording.world || this.app.solver.kind !== 'wasm') reason = 'the scene was rebuilt';
    else if (recording.world.frame <= recording.lastFrame) reason = 'the cloth was reset';
    else {
      try {
        recording.add();
      } catch (error) {
        reason = (error as Error).message;
      }
    }
    if (reason === null && recording.frames >= recording.capacity) reason = `the ${recording.capacity}-frame limit was reached`;
    if (reason !== null) {
      const result = this.end();
      this.onStopped?.(result, reason);
    }
  }

  private end(): Recorded | null {
    this.app.afterFrame = null;
    const recording = this.recording;
    this.recording = null;
    if (!recording) return null;
    const frames = recording.frames;
    return { bytes: recording.finish(), frames, seconds: frames * recording.world.frameDt };
  }
}
