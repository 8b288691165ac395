// The GPU adapter of the solver seam (seam.ts): GpuSolver (web/src/gpu/) on the renderer's device,
// drawn straight from its storage buffers. The core world stays the source of topology, colliders,
// picking and static render data; the GPU owns the particle state.
//
// The world's own arrays are refreshed from the GPU now and then (CHECKPOINT_FRAMES, an async copy,
// never per frame), so picking sees the cloth where it is and a lost device can hand the cloth to
// the wasm solver where it was: after a loss this object becomes a wasm solver on the same world.
import { BEND, SHEAR, STRETCH, type SphereState, type Vec3, type WeftWorld } from '../core/world';
import type { ClothSolver, PickHit, RenderSource, SolverFactory, SolverKind, SolverSettings } from './seam';
import { WasmSolver } from './wasm';
import { applySolverSettings, solverSettingsOf } from './settings';
import { kernelConfig } from '../gpu/device';
import { physicsSettingsOf, sphereDefsOf } from '../gpu/from-world';
import { GpuSolver } from '../gpu/solver';

/// ?solver=gpu and the panel's solver switch: a GpuClothSolver on the renderer's WebGPU device. The
/// app falls back to wasm, with a message, when there is no device or the solver fails to start.
export const createGpuSolver: SolverFactory = async ({ world, gpuDevice, startFrame, warn }) => {
  if (!gpuDevice) throw new Error('no WebGPU device');
  return new GpuClothSolver(world, gpuDevice, warn ?? (() => {}), startFrame ?? 0);
};

/// Frames between two refreshes of the core world's positions, velocities and residuals from the GPU.
const CHECKPOINT_FRAMES = 30;

export class GpuClothSolver implements ClothSolver {
  private gpu: GpuSolver | null;
  private fallback: WasmSolver | null = null;
  private frames = 0;
  private checkpointed = 0;
  private checkpointing: Promise<void> | null = null;
  private fallbackBase = 0;
  private destroyed = false;

  /// Starts from the world as it is now (a cloth mid-run keeps its state); startFrame counts on from
  /// the frames it has already run.
  constructor(
    readonly world: WeftWorld,
    device: GPUDevice,
    private readonly onFallback: (reason: string) => void,
    startFrame = 0,
  ) {
    this.frames = this.checkpointed = startFrame;
    // A mesh collider (the bunny, a dropped OBJ) is uploaded once and collided with by
    // mesh_collide.wgsl; without the full collider exports the cloth would fall through it.
    if (world.meshCollider() && !world.meshColliderGrid())
      throw new Error('the scene has a mesh collider, but this core does not export its grid');
    this.gpu = new GpuSolver(device, world, physicsSettingsOf(world), sphereDefsOf(world), {
      schedule: 'tiled',
      config: kernelConfig(device),
    });
    void device.lost.then((info) => this.fallBack(`the GPU device was lost: ${info.message || info.reason}`));
  }

  get kind(): SolverKind {
    return this.fallback ? 'wasm' : 'gpu';
  }

  get frame(): number {
    return this.fallback ? this.checkpointed + this.fallback.frame - this.fallbackBase : this.frames;
  }

  /// Continues on the C core from the last state copied out of the GPU.
  private fallBack(reason: string): void {
    if (this.fallback || this.destroyed) return;
    this.gpu = null;
    this.world.release();
    this.fallbackBase = this.world.frame;
    this.fallback = new WasmSolver(this.world);
    this.onFallback(`${reason}; the wasm solver continues from the state of frame ${this.checkpointed}.`);
  }

  async step(frames: number): Promise<void> {
    if (frames <= 0) return;
    if (this.fallback || !this.gpu) return this.fallback!.step(frames);
    const device = this.gpu.device;
    // A stiffer compliance and a thicker cloth are worked to a frame at a time, as the core's own step does it.
    const w = this.world;
    const ramping =
      [STRETCH, SHEAR, BEND].some((type) => w.complianceNow(type) !== w.compliance(type)) || w.selfCollision.thickness !== w.thickness;
    if (frames > 1 && ramping) {
      for (let f = 0; f < frames; f++) await this.step(1);
      return;
    }
    if (w.advanceComplianceRamp()) this.gpu.uploadConstraints();
    if (w.advanceThicknessRamp()) this.gpu.setSelfView(w.selfCollision);
    const timer = this.timer(device);
    const encoder = device.createCommandEncoder({ label: 'weft frame' });
    this.gpu.encode(encoder, this.world.frameDt, frames, timer ? { timestampWrites: timer.writes } : {});
    if (timer && timer.readback.mapState === 'unmapped') {
      encoder.resolveQuerySet(timer.querySet, 0, 2, timer.resolve, 0);
      encoder.copyBufferToBuffer(timer.resolve, 0, timer.readback, 0, 16);
    }
    const submitted = performance.now();
    device.queue.submit([encoder.finish()]);
    this.frames += frames;
    await device.queue.onSubmittedWorkDone();
    // Submit to completion includes whatever the queue held before (a frame being drawn); GPU
    // timestamps, when the adapter has them, time the step's compute pass alone.
    this.lastMs = (performance.now() - submitted) / frames;
    this.lastSource = 'gpu-submit';
    if (timer && timer.readback.mapState === 'unmapped') {
      try {
        await timer.readback.mapAsync(GPUMapMode.READ);
        const [begin, end] = new BigUint64Array(timer.readback.getMappedRange().slice(0));
        timer.readback.unmap();
        // A pass cannot take longer than from its submission to its completion: timestamps that
        // say so are a broken clock (seen on SwiftShader), and stop being used.
        const ms = Number(end - begin) / 1e6 / frames;
        if (end > begin && ms <= this.lastMs * 1.05) {
          this.lastMs = ms;
          this.lastSource = 'gpu-timestamp';
        } else if (++this.implausibleTimestamps >= 3) {
          this.timerState = null;
          for (const buffer of [timer.resolve, timer.readback]) buffer.destroy();
          timer.querySet.destroy();
        }
      } catch {
        // a lost device or a buffer destroyed meanwhile: keep the submit-to-completion figure
      }
    }
    if (this.frames - this.checkpointed >= CHECKPOINT_FRAMES && !this.checkpointing) {
      this.checkpointing = this.checkpoint().finally(() => (this.checkpointing = null));
    }
  }

  private lastMs: number | undefined;
  private lastSource: 'gpu-timestamp' | 'gpu-submit' = 'gpu-submit';
  private implausibleTimestamps = 0;
  private timerState:
    { querySet: GPUQuerySet; resolve: GPUBuffer; readback: GPUBuffer; writes: GPUComputePassTimestampWrites } | null | undefined;

  /// GPU timestamps around the step's compute pass, when the device has 'timestamp-query'.
  private timer(device: GPUDevice) {
    if (this.timerState !== undefined) return this.timerState;
    if (!device.features.has('timestamp-query')) return (this.timerState = null);
    const querySet = device.createQuerySet({ label: 'weft step timestamps', type: 'timestamp', count: 2 });
    this.timerState = {
      querySet,
      resolve: device.createBuffer({
        label: 'weft step timestamps',
        size: 16,
        usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
      }),
      readback: device.createBuffer({
        label: 'weft step timestamps readback',
        size: 16,
        usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ,
      }),
      writes: { querySet, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 },
    };
    return this.timerState;
  }

  measuredMs(): number | undefined {
    return this.fallback ? undefined : this.lastMs;
  }

  timingSource(): 'cpu' | 'gpu-timestamp' | 'gpu-submit' {
    return this.fallback ? 'cpu' : this.lastSource;
  }

  /// Copies positions, velocities and residuals into the core world (picking, fallback).
  private async checkpoint(): Promise<void> {
    const gpu = this.gpu;
    if (!gpu) return;
    const frame = this.frames;
    const [positions, velocities, residuals] = await Promise.all([gpu.read('positions'), gpu.read('velocities'), gpu.read('residuals')]);
    if (this.fallback) return;
    this.world.positions().set(positions);
    this.world.velocities().set(velocities);
    this.world.residuals().set(residuals);
    this.checkpointed = frame;
  }

  async reset(): Promise<void> {
    if (this.fallback) return this.fallback.reset();
    await this.checkpointing;
    this.world.reset();
    this.frames = this.checkpointed = 0;
    this.gpu!.uploadConstraints(); // a reset puts the compliances at their settings at once (a ramp cut short)
    this.gpu!.setSelfView(this.world.selfCollision); // and the thickness
    this.gpu!.release();
    this.gpu!.upload(this.world.positions(), this.world.velocities(), this.world.residuals());
    for (const sphere of this.gpu!.spheres) sphere.reset();
    this.gpu!.pinTime = 0;
    this.gpu!.substepsRun = 0;
    this.gpu!.step(this.world.frameDt, 0); // render data of the rest pose
  }

  positions(): Promise<Float32Array> {
    return this.fallback ? this.fallback.positions() : this.gpu!.read('positions');
  }

  renderSource(): RenderSource {
    if (this.fallback) return this.fallback.renderSource();
    const b = this.gpu!.buffers;
    return { kind: 'gpu', positions: b.positions, normals: b.normals, strain: b.strain };
  }

  settings(): SolverSettings {
    return solverSettingsOf(this.world);
  }

  /// The world validates and keeps the settings (its setters throw on bad input); the GPU copies them.
  apply(settings: Partial<SolverSettings>): void {
    const w = this.world;
    // The GPU's cloth steps outside the world: it says whether a stiffer setting is worked down to.
    const complianceChanged = applySolverSettings(w, settings, this.gpu ? this.gpu.substepsRun > 0 : undefined);
    if (!this.gpu) return;
    this.gpu.settings = { ...this.gpu.settings, ...physicsSettingsOf(w) };
    if (complianceChanged) this.gpu.uploadConstraints();
    if (settings.thickness !== undefined) this.gpu.setSelfView(w.selfCollision);
  }

  spheres(): SphereState[] {
    if (this.fallback || !this.gpu) return this.fallback!.spheres();
    return this.gpu.spheres.map((s) => ({ center: { ...s.center }, radius: s.def.radius, moving: s.moving }));
  }

  setSphereMoving(moving: boolean): void {
    for (let i = 0; i < this.world.sphereCount; i++) this.world.setSphereMoving(i, moving);
    for (const sphere of this.gpu?.spheres ?? []) sphere.moving = moving && sphere.def.frequency > 0;
  }

  async pick(origin: Vec3, direction: Vec3): Promise<PickHit | null> {
    if (this.gpu) this.world.positions().set(await this.gpu.read('positions'));
    return this.world.raycast(origin, direction);
  }

  grab(particle: number, target: Vec3): void {
    if (this.fallback) return this.fallback.grab(particle, target);
    this.gpu!.grab(particle, target);
  }

  grabMove(target: Vec3): void {
    if (this.fallback) return this.fallback.grabMove(target);
    this.gpu!.grabMove(target);
  }

  release(): void {
    if (this.fallback) return this.fallback.release();
    this.gpu?.release();
  }

  destroy(): void {
    this.destroyed = true;
    if (this.timerState) for (const b of [this.timerState.resolve, this.timerState.readback]) b.destroy();
    this.timerState?.querySet.destroy();
    this.gpu?.destroy();
    this.gpu = null;
    this.world.destroy();
  }
}
