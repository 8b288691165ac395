// window.weft: the page's contract with tests and tooling (docs/architecture.md, contracts).
import type { App, ObjResult, Stats } from './app';
import type { Recorder } from './record';

export interface WeftHooks {
  stats(): Stats;
  capture(): Promise<string>;
  positions(): Promise<Float32Array>;
  pause(): void;
  resume(): void;
  reset(): Promise<void>;
  step(n: number): Promise<void>;
  /** Makes OBJ text the collider of the current scene, as dropping a file does (the page shows the same message). */
  loadObj(text: string): Promise<ObjResult>;
  /** Simulates the next `frames` frames (paused or not) into a .glb and resolves to its bytes (record.ts). */
  record(frames: number): Promise<Uint8Array>;
  /** Makes a .glb / embedded .gltf's meshes the collider, as dropping the file does. */
  loadGltf(bytes: ArrayBuffer | ArrayBufferView): Promise<ObjResult>;
}

declare global {
  interface Window {
    weft?: WeftHooks;
  }
}

export function installHooks(app: App, changed: () => void, recorder: Recorder): void {
  window.weft = {
    stats: () => app.stats(),
    capture: () => app.capture(),
    positions: () => app.solver.positions(),
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
    // glTF (record.ts, core/gltf.ts)
    record: (frames: number) => recorder.record(Math.floor(Number(frames))),
    loadGltf: (bytes: ArrayBuffer | ArrayBufferView) => {
      if (!(bytes instanceof ArrayBuffer) && !ArrayBuffer.isView(bytes)) {
        return Promise.reject(new Error(`loadGltf(bytes) needs the file's bytes, got ${typeof bytes}`));
      }
      const view = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      return app.loadGltf(view.slice(), 'loadGltf');
    },
  };
}
