// The solver seam: what the app needs from whatever advances the cloth.
//
// Two solvers share one scene. Both start from a WeftWorld (the C core built the cloth, its colouring,
// tethers and colliders; TypeScript never rebuilds topology):
//   - 'wasm' (wasm.ts): the core steps in linear memory; renderSource() hands out Float32Array
//     views on memory.buffer, which the renderer passes straight to writeBuffer/bufferSubData.
//   - 'gpu' (gpu.ts, over the WGSL solver of web/src/gpu/): uploads the core's arrays once from the same views
//     (world.positions(), world.constraintBytes(), world.colorOffsets(), world.tetherAnchors(), ...),
//     steps with WGSL compute kernels and renderSource() hands out its GPUBuffers, created with
//     GPUBufferUsage.STORAGE | GPUBufferUsage.VERTEX on the renderer's device (gpuDevice below), so the
//     renderer binds them as vertex buffers with no read-back per frame.
// Static render data (indices, UVs) always comes from the core world. A solver is made by a
// SolverFactory (createGpuSolver in gpu.ts); app.ts picks one by the ?solver= parameter and falls
// back to wasm (with an on-page message) when the GPU one cannot start. The factory gets the
// renderer's device (null on WebGL2, where the app stays on wasm) and must not destroy `world`: the
// solver owns it from then on (destroy()).
import type { SphereState, Vec3, WeftWorld } from '../core/world';

export type SolverKind = 'wasm' | 'gpu';

/** Per-vertex arrays in core memory: xyzw positions, xyzw normals, one strain per particle. */
export interface CpuRenderSource {
  kind: 'cpu';
  positions: Float32Array;
  normals: Float32Array;
  strain: Float32Array;
}

/** The same arrays as GPU buffers the solver owns (STORAGE | VERTEX usage, same strides). */
export interface GpuRenderSource {
  kind: 'gpu';
  positions: GPUBuffer;
  normals: GPUBuffer;
  strain: GPUBuffer;
}

export type RenderSource = CpuRenderSource | GpuRenderSource;

/** Settings the panel changes live. Compliances in m/N, damping in 1/s, wind in m/s; the air as
 *  weft_world_def has it (drag and lift coefficients, air density kg/m³, gust strength a fraction). */
export interface SolverSettings {
  substeps: number;
  iterations: number;
  stretchCompliance: number;
  shearCompliance: number;
  bendCompliance: number;
  damping: number;
  drag: number;
  lift: number;
  airDensity: number;
  gustStrength: number;
  wind: Vec3;
  /// The cloth keeps its thickness between its own layers (weft_world_def.self_collision).
  selfCollision: boolean;
  /// That thickness as set, m (weft_world_set_thickness; 0 sets the grid spacing, the default; a
  /// thicker one is worked up to a frame at a time).
  thickness: number;
  /// No constraint longer than (1 + this) × its rest length (weft_cloth_def.strain_limit; 0 = none).
  strainLimit: number;
  /// Stretch edges run through the mesh collider lifted back over its ridge (weft_world_set_mesh_ridge_lifts;
  /// the wasm solver only; false and ignored without a mesh collider).
  ridgeLifts: boolean;
  /// The most substeps a frame may take where the cloth near a collider or the hand moves fast
  /// (weft_world_def.max_substeps, 32; at or below substeps, every frame takes substeps; the wasm
  /// solver only: the gpu solver keeps substeps).
  maxSubsteps: number;
}

export interface PickHit {
  particle: number;
  /** Ray parameter of the hit (metres along a unit direction). */
  distance: number;
}

export interface ClothSolver {
  readonly kind: SolverKind;
  /** The core world the cloth was built by (topology, colliders, static render data). */
  readonly world: WeftWorld;
  /** Frames simulated since creation or reset. */
  readonly frame: number;
  /** Advances exactly `frames` frames of world.frameDt; render data is up to date when it settles. */
  step(frames: number): Promise<void> | void;
  /** Back to the rest pose, time 0. */
  reset(): Promise<void> | void;
  /** A copy of the positions (xyzw per particle). */
  positions(): Promise<Float32Array>;
  /** What the renderer draws this frame. */
  renderSource(): RenderSource;
  settings(): SolverSettings;
  apply(settings: Partial<SolverSettings>): void;
  spheres(): SphereState[];
  setSphereMoving(moving: boolean): void;
  pick(origin: Vec3, direction: Vec3): PickHit | null | Promise<PickHit | null>;
  grab(particle: number, target: Vec3): void;
  grabMove(target: Vec3): void;
  release(): void;
  destroy(): void;
  /** ms per frame of the last step as the solver measured it itself (the GPU: timestamps, or
   *  submit to completion); absent or undefined: the app times the step call. */
  measuredMs?(): number | undefined;
  /** How measuredMs was measured ('cpu' when the app times the call). */
  timingSource?(): 'cpu' | 'gpu-timestamp' | 'gpu-submit';
}

export interface SolverContext {
  world: WeftWorld;
  /** The renderer's device when it is WebGPU (a GPU solver must share it to hand out buffers). */
  gpuDevice: GPUDevice | null;
  /** Frames the world has already run (a solver taking over a cloth mid-run); default 0. */
  startFrame?: number;
  /** Shows a warning on the page (a GPU solver that fell back to wasm says why). */
  warn?: (text: string) => void;
}

export type SolverFactory = (context: SolverContext) => Promise<ClothSolver>;
