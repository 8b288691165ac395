// The wasm adapter of the solver seam (seam.ts): the C core is the solver; every call goes through the wasm exports, arrays are read in place.
import type { SphereState, Vec3, WeftWorld } from '../core/world';
import type { ClothSolver, PickHit, RenderSource, SolverSettings } from './seam';
import { applySolverSettings, solverSettingsOf } from './settings';

export class WasmSolver implements ClothSolver {
  readonly kind = 'wasm' as const;

  constructor(readonly world: WeftWorld) {
    world.updateRenderData();
  }

  get frame(): number {
    return this.world.frame;
  }

  step(frames: number): void {
    if (frames <= 0) return;
    this.world.stepFrames(frames);
    this.world.updateRenderData();
  }

  reset(): void {
    this.world.reset();
    this.world.updateRenderData();
  }

  async positions(): Promise<Float32Array> {
    return this.world.positions().slice();
  }

  renderSource(): RenderSource {
    return { kind: 'cpu', positions: this.world.positions(), normals: this.world.normals(), strain: this.world.strain() };
  }

  settings(): SolverSettings {
    return solverSettingsOf(this.world);
  }

  apply(settings: Partial<SolverSettings>): void {
    applySolverSettings(this.world, settings);
  }

  spheres(): SphereState[] {
    const spheres: SphereState[] = [];
    for (let i = 0; i < this.world.sphereCount; i++) spheres.push(this.world.sphere(i));
    return spheres;
  }

  setSphereMoving(moving: boolean): void {
    for (let i = 0; i < this.world.sphereCount; i++) this.world.setSphereMoving(i, moving);
  }

  pick(origin: Vec3, direction: Vec3): PickHit | null {
    return this.world.raycast(origin, direction);
  }

  grab(particle: number, target: Vec3): void {
    this.world.grab(particle, target);
  }

  grabMove(target: Vec3): void {
    this.world.grabMove(target);
  }

  release(): void {
    this.world.release();
  }

  destroy(): void {
    this.world.destroy();
  }
}
