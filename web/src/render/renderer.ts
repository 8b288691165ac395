// What both renderers (WebGPU, WebGL2) offer the app, and what they draw each frame.
import type { CameraMatrices } from '../camera';
import type { SphereState, WeftWorld } from '../core/world';
import type { RenderSource } from '../solver/seam';
import type { ShadingMode } from './modes';

export type RendererKind = 'webgpu' | 'webgl2';

export interface FrameInput {
  source: RenderSource;
  camera: CameraMatrices;
  spheres: SphereState[];
  mode: ShadingMode;
  /** Height of the ground plane in m, or null when the scene has none. */
  groundHeight: number | null;
}

export interface Renderer {
  readonly kind: RendererKind;
  /** The WebGPU device (a GPU solver shares it), null for WebGL2. */
  readonly device: GPUDevice | null;
  /** MSAA samples per pixel (both renderers antialias). */
  readonly samples: number;
  /** The device the browser draws with is the CPU's (by its name: software.ts). */
  readonly software: boolean;
  /** Static cloth data (indices, UVs, sizes) of a new or rebuilt world. */
  setCloth(world: WeftWorld): void;
  /** Drawing-buffer size in device pixels. */
  resize(width: number, height: number): void;
  draw(frame: FrameInput): void;
  /** Renders the frame off-screen and returns it as a PNG data URL. */
  capture(frame: FrameInput): Promise<string>;
  destroy(): void;
}

/** Light direction shared by both renderers (unit vector towards the key light). */
export const LIGHT_DIRECTION = (() => {
  const x = 0.45,
    y = 0.8,
    z = 0.4;
  const n = Math.hypot(x, y, z);
  return [x / n, y / n, z / n] as const;
})();

/** RGBA8 rows, top row first, to a PNG data URL (through a 2D canvas). */
export function rgbaToPng(pixels: Uint8Array | Uint8ClampedArray, width: number, height: number): string {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2D canvas context for capture()');
  const image = context.createImageData(width, height);
  image.data.set(pixels);
  context.putImageData(image, 0, 0);
  return canvas.toDataURL('image/png');
}
