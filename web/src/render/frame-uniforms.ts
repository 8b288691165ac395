// The per-frame uniform block of common.wgsl (struct Frame) and of the GLSL `Frame` block (std140):
// both are mat4 + 3 vec4 + MAX_DRAWN_SPHERES vec4, so one Float32Array serves both renderers.
// eye.w is the eye's horizontal distance to the camera's target (ground.wgsl: where the fade starts).
import { LIGHT_DIRECTION, type FrameInput } from './renderer';
import { MAX_DRAWN_SPHERES, STRAIN_FULL_SCALE, modeIndex } from './modes';

export const FRAME_UNIFORM_FLOATS = 16 + 4 * 3 + 4 * MAX_DRAWN_SPHERES;
export const FRAME_UNIFORM_BYTES = FRAME_UNIFORM_FLOATS * 4;

export function frameUniforms(frame: FrameInput, out = new Float32Array(FRAME_UNIFORM_FLOATS)): Float32Array<ArrayBuffer> {
  out.set(frame.camera.viewProjection, 0);
  // w: how far (horizontally) the eye is from the point looked at: the ground is solid out to there.
  const { eye, target } = frame.camera;
  out.set([eye.x, eye.y, eye.z, Math.hypot(target.x - eye.x, target.z - eye.z)], 16);
  out.set([...LIGHT_DIRECTION, 0], 20);
  const spheres = frame.spheres.slice(0, MAX_DRAWN_SPHERES);
  // Without a ground the plane is drawn far below, out of sight.
  out.set([modeIndex(frame.mode), STRAIN_FULL_SCALE, frame.groundHeight ?? -1e4, spheres.length], 24);
  spheres.forEach((s, i) => out.set([s.center.x, s.center.y, s.center.z, s.radius], 28 + i * 4));
  return out;
}

/** Per-instance sphere data (centre, radius) for the instanced sphere draw. */
export function sphereInstances(frame: FrameInput): Float32Array<ArrayBuffer> {
  const spheres = frame.spheres.slice(0, MAX_DRAWN_SPHERES);
  const out = new Float32Array(MAX_DRAWN_SPHERES * 4);
  spheres.forEach((s, i) => out.set([s.center.x, s.center.y, s.center.z, s.radius], i * 4));
  return out;
}
