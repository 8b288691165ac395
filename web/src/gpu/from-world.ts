// What the GPU solver takes from a core world (web/src/core/world.ts): its settings and spheres,
// as they are now (a solver switch mid-run continues the same motion).
import type { WeftWorld } from '../core/world';
import { CORE_DEFAULTS, type PhysicsSettings } from './settings';
import type { SphereDef } from './spheres';

export function physicsSettingsOf(world: WeftWorld): PhysicsSettings {
  const ground = world.groundHeight;
  const contact = world.contactSettings;
  return {
    ...CORE_DEFAULTS,
    gravity: contact.gravity,
    maxSpeed: contact.maxSpeed,
    friction: contact.friction,
    collisionMargin: contact.collisionMargin,
    substeps: world.substeps,
    iterations: world.iterations,
    damping: world.damping,
    ...airOf(world),
    wind: world.wind,
    groundEnabled: ground !== null,
    groundHeight: ground ?? 0,
    selfCollision: world.selfCollision.enabled,
    pinVelocity: world.pinMotion.velocity,
    pinMotionTime: world.pinMotion.motionTime,
    stretchLimit: world.stretchLimit,
  };
}

function airOf(world: WeftWorld): Pick<PhysicsSettings, 'drag' | 'lift' | 'airDensity' | 'gustStrength' | 'gustSeed'> {
  const { drag, lift, airDensity, gustStrength, gustSeed } = world.air;
  return { drag, lift, airDensity, gustStrength, gustSeed };
}

/// The spheres with their scripted motion, each at the point of its motion the core has reached.
export function sphereDefsOf(world: WeftWorld): SphereDef[] {
  const spheres: SphereDef[] = [];
  for (let i = 0; i < world.sphereCount; ++i) {
    const s = world.sphere(i);
    const motion = world.sphereMotion(i);
    spheres.push({
      center: motion.base,
      radius: s.radius,
      amplitude: motion.amplitude,
      frequency: motion.frequency,
      moving: motion.movingAtStart,
      movingNow: s.moving,
      startTime: motion.time,
    });
  }
  return spheres;
}
