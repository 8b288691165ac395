// window.weft: the page's contract with tests and tooling (docs/architecture.md, contracts).
import type { App, ObjResult, Stats } from './app';
import type { RecordFormat, Recorder } from './record';
import type { MessageLevel, Messages } from './ui/messages';

/** What setCamera() takes: any of the orbit camera's parameters (angles in radians, metres). */
export interface CameraPose {
  yaw?: number;
  pitch?: number;
  distance?: number;
  target?: { x: number; y: number; z: number };
}

export interface WeftHooks {
  stats(): Stats;
  capture(): Promise<string>;
  positions(): Promise<Float32Array>;
  /** The cloth where it is now as Wavefront OBJ text (what O downloads). */
  obj(): Promise<string>;
  pause(): void;
  resume(): void;
  reset(): Promise<void>;
  step(n: number): Promise<void>;
  /** Makes OBJ text the collider of the current scene, as dropping a file does (the page shows the same message). */
  loadObj(text: string): Promise<ObjResult>;
  /** Moves the orbit camera (as a drag would: the eye stays above the ground and out of colliders); returns stats().camera. */
  setCamera(pose: CameraPose): Stats['camera'];
  /** Frames the cloth where it is now (F, a double-click, the panel's button). */
  frame(): Promise<Stats['camera']>;
  /** Shows a message on the page, as the page's own are shown (tools, tests). */
  notify(text: string, level?: MessageLevel): void;
  /** Simulates the next `frames` frames (paused or not) into a .glb, or with format 'obj' into an
   *  OBJ sequence's .zip, and resolves to its bytes (record.ts). */
  record(frames: number, format?: RecordFormat): Promise<Uint8Array>;
  /** Makes a .glb / embedded .gltf's meshes the collider, as dropping the file does. */
  loadGltf(bytes: ArrayBuffer | ArrayBufferView): Promise<ObjResult>;
}

declare global {
  interface Window {
    weft?: WeftHooks;
  }
}

export function installHooks(app: App, changed: () => void, recorder: Recorder, messages?: Messages): void {
  window.weft = {
    stats: () => app.stats(),
    capture: () => app.capture(),
    positions: () => app.solver.positions(),
    obj: () => app.clothObj(),
    pause: () => {
      app.paused = true;
      changed();
    },
    resume: () => {
      app.paused = false;
      changed();
    },
    reset: () => app.reset(),
    step: (n: number) => {
      const frames = Math.floor(Number(n));
      if (!Number.isFinite(frames) || frames < 0) return Promise.reject(new Error(`step(n) needs a whole number ≥ 0, got ${n}`));
      return app.step(frames);
    },
    loadObj: (text: string) => {
      if (typeof text !== 'string') return Promise.reject(new Error(`loadObj(text) needs the OBJ file's text, got ${typeof text}`));
      return app.loadObj(new TextEncoder().encode(text), 'loadObj');
    },
    setCamera: (pose: CameraPose) => {
      const c = app.camera;
      if (pose.yaw !== undefined) c.yaw = Number(pose.yaw);
      if (pose.pitch !== undefined) c.pitch = Number(pose.pitch);
      if (pose.distance !== undefined) c.distance = Number(pose.distance);
      if (pose.target) c.target = { x: Number(pose.target.x), y: Number(pose.target.y), z: Number(pose.target.z) };
      c.constrain();
      return app.stats().camera;
    },
    frame: async () => {
      await app.frameCloth();
      return app.stats().camera;
    },
    notify: (text: string, level: MessageLevel = 'info') => messages?.show(String(text), level),
    // glTF (record.ts, core/gltf.ts)
    record: (frames: number, format: RecordFormat = 'glb') => recorder.record(Math.floor(Number(frames)), format),
    loadGltf: (bytes: ArrayBuffer | ArrayBufferView) => {
      if (!(bytes instanceof ArrayBuffer) && !ArrayBuffer.isView(bytes)) {
        return Promise.reject(new Error(`loadGltf(bytes) needs the file's bytes, got ${typeof bytes}`));
      }
      const view = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      return app.loadGltf(view.slice(), 'loadGltf');
    },
  };
}
