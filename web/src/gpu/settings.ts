// The world settings the kernels read (weft_world_def's live part). CORE_DEFAULTS mirrors
// weft_default_world_def() for callers that cannot read a field from the core yet; the gpu test
// suite compiles the C function and fails if a value here drifts from it.
import type { Vec3 } from '../core/world';

export interface PhysicsSettings {
  gravity: Vec3; // m/s²
  substeps: number;
  iterations: number;
  damping: number; // 1/s
  wind: Vec3; // m/s
  drag: number; // drag coefficient of the triangles
  lift: number; // lift coefficient
  airDensity: number; // kg/m³, 0 = no air
  gustStrength: number; // the wind varies by up to this fraction of its speed (the core computes each substep's)
  gustSeed: number;
  maxSpeed: number; // m/s, 0 = no clamp
  groundEnabled: boolean;
  groundHeight: number; // m
  friction: number; // [0, 1]
  collisionMargin: number; // m
  selfCollision: boolean; // the cloth keeps its thickness between its layers (self_collision.wgsl)
  pinVelocity: Vec3; // m/s, pinned particles move from rest at this velocity...
  pinMotionTime: number; // ...for this many s after creation or reset (0 = pins never move)
  stretchLimit: number; // 1 + the cloth's strain limit (weft_world_stretch_limit; Infinity = none)
}

export const CORE_DEFAULTS: Readonly<PhysicsSettings> = Object.freeze({
  gravity: { x: 0, y: -9.81, z: 0 },
  substeps: 10,
  iterations: 1,
  damping: 0.5,
  wind: { x: 0, y: 0, z: 0 },
  drag: 0.5,
  lift: 0.6,
  airDensity: 0,
  gustStrength: 0,
  gustSeed: 1,
  maxSpeed: 30,
  groundEnabled: true,
  groundHeight: 0,
  friction: 0.4,
  collisionMargin: 0.005,
  selfCollision: false,
  pinVelocity: { x: 0, y: 0, z: 0 },
  pinMotionTime: 0,
  stretchLimit: Math.fround(1 + Math.fround(0.2)), // weft_default_cloth_def's strain_limit
});

/// Air acts (aerodynamics.c: weft_aero_active): air density > 0 and a drag or lift coefficient > 0.
export function airActive(s: Pick<PhysicsSettings, 'drag' | 'lift' | 'airDensity'>): boolean {
  return s.airDensity > 0 && (s.drag > 0 || s.lift > 0);
}
