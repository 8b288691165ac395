// The live solver settings (the panel's "Solver" and "Air" folders) read from and written to a core
// world. Both solvers keep their settings in the world, which validates them (its setters throw on
// bad input); the GPU solver then copies what it needs.
import { BEND, SHEAR, STRETCH, type WeftWorld } from '../core/world';
import type { SolverSettings } from './seam';

export function solverSettingsOf(w: WeftWorld): SolverSettings {
  return {
    substeps: w.substeps,
    iterations: w.iterations,
    stretchCompliance: w.compliance(STRETCH),
    shearCompliance: w.compliance(SHEAR),
    bendCompliance: w.compliance(BEND),
    damping: w.damping,
    drag: w.air.drag,
    lift: w.air.lift,
    airDensity: w.air.airDensity,
    gustStrength: w.air.gustStrength,
    wind: w.wind,
    selfCollision: w.selfCollision.enabled,
    thickness: w.thickness,
    strainLimit: w.strainLimit,
    ridgeLifts: w.meshRidgeLifts,
    maxSubsteps: w.maxSubsteps,
  };
}

/// Applies the given settings; returns whether a compliance changed (constraint data to re-upload).
/// `gradually`: whether a lower compliance or a thicker cloth is worked to (WeftWorld.setCompliance,
/// setThickness; by default the core's rule, for a cloth the core world steps).
export function applySolverSettings(w: WeftWorld, settings: Partial<SolverSettings>, gradually?: boolean): boolean {
  if (settings.substeps !== undefined || settings.iterations !== undefined) {
    w.setSubsteps(settings.substeps ?? w.substeps, settings.iterations ?? w.iterations);
  }
  const compliance = [settings.stretchCompliance, settings.shearCompliance, settings.bendCompliance];
  [STRETCH, SHEAR, BEND].forEach((type, i) => compliance[i] !== undefined && w.setCompliance(type, compliance[i]!, gradually));
  if (settings.maxSubsteps !== undefined) w.setMaxSubsteps(settings.maxSubsteps);
  if (settings.damping !== undefined) w.setDamping(settings.damping);
  const { drag, lift, airDensity, gustStrength } = settings;
  if (drag !== undefined || lift !== undefined || airDensity !== undefined || gustStrength !== undefined)
    w.setAir({ drag, lift, airDensity, gustStrength });
  if (settings.wind !== undefined) w.setWind(settings.wind);
  if (settings.selfCollision !== undefined) w.setSelfCollision(settings.selfCollision);
  if (settings.thickness !== undefined) w.setThickness(settings.thickness, gradually);
  if (settings.strainLimit !== undefined) w.setStrainLimit(settings.strainLimit);
  if (settings.ridgeLifts !== undefined && w.meshTriangleCount > 0) w.setMeshRidgeLifts(settings.ridgeLifts);
  return compliance.some((c) => c !== undefined);
}
