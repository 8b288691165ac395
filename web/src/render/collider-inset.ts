// The mesh collider as both renderers draw it: every vertex moved in along its pseudo-normal by the
// collision margin the push-out keeps (clamped, as the core clamps it, to half a grid cell).
//
// The cloth's particles stay that far outside the surface, but its flat triangles span them: over a
// ridge sharper than the cloth's spacing (the bunny's ears and back at 64²) the chord between two
// particles dips under the margin and the surface, drawn where it is, showed through the cloth as
// white slivers. Drawn inset by the margin (the cloth's half thickness as simulated), it stays under
// a cloth that keeps the margin, and shows where a triangle really cuts into it.
import type { WeftWorld } from '../core/world';

/** How far in the collider is drawn, m: the world's collision margin, at most half a grid cell. */
export function colliderInset(world: WeftWorld): number {
  const margin = world.contactSettings.collisionMargin;
  const cellSize = world.meshColliderGrid()?.cellSize ?? Infinity;
  return Math.max(0, Math.min(margin, 0.5 * cellSize));
}

/** vertices (float4: x, y, z, w) moved by −inset along normals (float4, unit pseudo-normals). */
export function insetVertices(vertices: Float32Array, normals: Float32Array, inset: number): Float32Array {
  const out = new Float32Array(vertices.length);
  for (let i = 0; i < vertices.length; i += 4) {
    for (let k = 0; k < 3; ++k) out[i + k] = vertices[i + k] - inset * normals[i + k];
    out[i + 3] = vertices[i + 3];
  }
  return out;
}
