// What the GPU solver takes from a core world (web/src/core/world.ts): its settings and spheres.
// Settings the boundary does not export yet (gravity, speed clamp, friction, margin) are the core's
// defaults, which no scene changes today (CORE_DEFAULTS is checked against the C defaults).
import type { WeftWorld } from '../core/world';
import { CORE_DEFAULTS, type PhysicsSettings } from './settings';
import type { SphereDef } from './spheres';

export function physicsSettingsOf(world: WeftWorld): PhysicsSettings {
  const ground = world.groundHeight;
  return {
    ...CORE_DEFAULTS,
    gravity: { ...CORE_DEFAULTS.gravity },
    substeps: world.substeps,
    iterations: world.iterations,
    damping: world.damping,
    drag: world.drag,
    wind: world.wind,
    groundEnabled: ground !== null,
    groundHeight: ground ?? 0,
  };
}

/// The spheres as they are now. The boundary exports no motion amplitude or frequency, so a GPU
/// solver built from a world keeps its spheres where they are (the S key's "off" state).
export function sphereDefsOf(world: WeftWorld): SphereDef[] {
  const spheres: SphereDef[] = [];
  for (let i = 0; i < world.sphereCount; ++i) {
    const s = world.sphere(i);
    spheres.push({ center: s.center, radius: s.radius, amplitude: { x: 0, y: 0, z: 0 }, frequency: 0, moving: false });
  }
  return spheres;
}
