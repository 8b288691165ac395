// Recording the running cloth into a .glb: the core's glTF writer (src/gltf_writer.c, the same code
// as `weft run --export FILE.glb`) writes into a buffer in wasm memory (wasm/weft_wasm_gltf.c), one
// frame after each simulated frame; finish() copies the file out once.
//
// The recorder drives App through two seams only: App.exclusive (work that runs between frames,
// never during one) and App.afterFrame (called after each simulated frame while set; App then
// steps frame by frame). It reads the core world, so it needs the wasm solver.
import type { App } from './app';
import type { WeftWorld } from './core/world';

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

/** A .glb being written in wasm memory from one core world. */
class GltfRecording {
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

/** What a finished recording gave. */
export interface Recorded {
  bytes: Uint8Array;
  frames: number;
  seconds: number;
}

export class Recorder {
  private recording: GltfRecording | null = null;
  /** Called when a live recording ends by itself (full, the world replaced, a write failure). */
  onStopped: ((result: Recorded | null, reason: string) => void) | null = null;

  constructor(private readonly app: App) {}

  get active(): boolean {
    return this.recording !== null;
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

  /** Starts recording the frames the app simulates from now on (at most maxFrames, recordingLimit by default). */
  start(maxFrames?: number): Promise<void> {
    return this.app.exclusive(() => {
      this.begin(maxFrames ?? recordingLimit(this.app.solver.world.particleCount));
      this.app.afterFrame = () => this.afterFrame();
    });
  }

  /** Stops and returns the .glb (null when nothing was recording). */
  stop(): Promise<Recorded | null> {
    return this.app.exclusive(() => this.end());
  }

  /** Simulates exactly `frames` frames (paused or not) into a fresh recording and returns its .glb. */
  record(frames: number): Promise<Uint8Array> {
    return this.app.exclusive(async () => {
      this.begin(frames);
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

  private begin(capacity: number): void {
    if (this.recording) throw new Error('already recording');
    if (!Number.isInteger(capacity) || capacity < 1 || capacity > MAX_RECORD_FRAMES) {
      throw new Error(`a recording holds 1..${MAX_RECORD_FRAMES} frames (got ${capacity})`);
    }
    if (this.app.solver.kind !== 'wasm') throw new Error('recording reads the C core (wasm) solver; switch the solver to wasm');
    this.recording = new GltfRecording(this.app.solver.world, capacity);
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
