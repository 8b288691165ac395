// Oracles for self-collision, independent of the solvers' spatial hash (tests/unit/cloth_contacts.h
// in TypeScript): a plain uniform grid of cells in a Map, exact-in-double edge–triangle crossings.

type Points = ArrayLike<number>; // float4 per item (xyz used)

/// Items by uniform grid cell of edge `cell`; visit(k, other) for the others in the 27 cells around k.
function gridPairs(points: Points, count: number, stride: number, cell: number, visit: (k: number, other: number) => void): void {
  const key = (x: number, y: number, z: number) => `${x},${y},${z}`;
  const cellOf = (k: number) => [0, 1, 2].map((a) => Math.floor(points[stride * k + a] / cell));
  const cells = new Map<string, number[]>();
  for (let k = 0; k < count; ++k) {
    const [x, y, z] = cellOf(k);
    const list = cells.get(key(x, y, z));
    if (list) list.push(k);
    else cells.set(key(x, y, z), [k]);
  }
  for (let k = 0; k < count; ++k) {
    const [x, y, z] = cellOf(k);
    for (let dz = -1; dz <= 1; ++dz)
      for (let dy = -1; dy <= 1; ++dy)
        for (let dx = -1; dx <= 1; ++dx) for (const other of cells.get(key(x + dx, y + dy, z + dz)) ?? []) if (other !== k) visit(k, other);
  }
}

/// Smallest distance (up to `reach`; Infinity if none) between two particles farther apart than
/// restLimit in the rest pose.
export function closestNonNeighbours(x: Points, rest: Points, n: number, restLimit: number, reach: number): number {
  let best2 = reach * reach;
  let found = false;
  gridPairs(x, n, 4, reach, (i, j) => {
    let r2 = 0,
      d2 = 0;
    for (let a = 0; a < 3; ++a) {
      const r = rest[4 * i + a] - rest[4 * j + a],
        d = x[4 * i + a] - x[4 * j + a];
      r2 += r * r;
      d2 += d * d;
    }
    if (r2 > restLimit * restLimit && d2 < best2) {
      best2 = d2;
      found = true;
    }
  });
  return found ? Math.sqrt(best2) : Infinity;
}

type V = [number, number, number];
// Exact-in-double orientation of d against the plane (a, b, c).
function orient3(a: V, b: V, c: V, d: V): number {
  const ax = a[0] - d[0],
    ay = a[1] - d[1],
    az = a[2] - d[2];
  const bx = b[0] - d[0],
    by = b[1] - d[1],
    bz = b[2] - d[2];
  const cx = c[0] - d[0],
    cy = c[1] - d[1],
    cz = c[2] - d[2];
  return ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx);
}

// Segment pq crosses triangle abc (strictly opposite sides, strictly inside).
function segmentCrossesTriangle(p: V, q: V, a: V, b: V, c: V): boolean {
  const sp = orient3(a, b, c, p),
    sq = orient3(a, b, c, q);
  if (!((sp > 0 && sq < 0) || (sp < 0 && sq > 0))) return false;
  const s1 = orient3(p, q, a, b),
    s2 = orient3(p, q, b, c),
    s3 = orient3(p, q, c, a);
  return (s1 > 0 && s2 > 0 && s3 > 0) || (s1 < 0 && s2 < 0 && s3 < 0);
}

/// Pairs of cloth triangles that share no vertex and intersect; `cell` at least the longest edge.
export function intersectingTrianglePairs(x: Points, indices: ArrayLike<number>, cell: number): number {
  const triangles = indices.length / 3;
  const vertex = (i: number): V => [x[4 * i], x[4 * i + 1], x[4 * i + 2]];
  const centroids = new Float64Array(4 * triangles);
  for (let t = 0; t < triangles; ++t)
    for (let a = 0; a < 3; ++a)
      centroids[4 * t + a] = (x[4 * indices[3 * t] + a] + x[4 * indices[3 * t + 1] + a] + x[4 * indices[3 * t + 2] + a]) / 3;
  let pairs = 0;
  gridPairs(centroids, triangles, 4, cell, (s, t) => {
    if (t < s) return;
    const u = [indices[3 * s], indices[3 * s + 1], indices[3 * s + 2]];
    const v = [indices[3 * t], indices[3 * t + 1], indices[3 * t + 2]];
    if (u.some((i) => v.includes(i))) return; // adjacent
    const [a, b, c] = u.map(vertex),
      [d, e, f] = v.map(vertex);
    if (
      segmentCrossesTriangle(a, b, d, e, f) ||
      segmentCrossesTriangle(b, c, d, e, f) ||
      segmentCrossesTriangle(c, a, d, e, f) ||
      segmentCrossesTriangle(d, e, a, b, c) ||
      segmentCrossesTriangle(e, f, a, b, c) ||
      segmentCrossesTriangle(f, d, a, b, c)
    )
      pairs++;
  });
  return pairs;
}

/// Mean position of the particles.
export function centroid(x: Points, n: number): V {
  const c: V = [0, 0, 0];
  for (let k = 0; k < n; ++k) for (let a = 0; a < 3; ++a) c[a] += x[4 * k + a] / n;
  return c;
}
