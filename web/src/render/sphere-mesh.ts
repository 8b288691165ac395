// A unit UV sphere (positions are also the normals) for the instanced sphere colliders.
export interface SphereMesh {
  positions: Float32Array; // xyz
  indices: Uint16Array;
}

export function unitSphere(rings = 24, segments = 40): SphereMesh {
  const positions: number[] = [];
  const indices: number[] = [];
  for (let r = 0; r <= rings; r++) {
    const theta = (r / rings) * Math.PI;
    for (let s = 0; s <= segments; s++) {
      const phi = (s / segments) * Math.PI * 2;
      positions.push(Math.sin(theta) * Math.cos(phi), Math.cos(theta), Math.sin(theta) * Math.sin(phi));
    }
  }
  const row = segments + 1;
  for (let r = 0; r < rings; r++) {
    for (let s = 0; s < segments; s++) {
      const a = r * row + s,
        b = a + row;
      indices.push(a, a + 1, b, b, a + 1, b + 1);
    }
  }
  return { positions: new Float32Array(positions), indices: new Uint16Array(indices) };
}
