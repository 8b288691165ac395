// The static mesh collider on the GPU side: the core's arrays (weft_mesh_collider_view, built once by
// the C core: never rebuilt here) packed into one storage buffer of MESH_SECTIONS (layout.ts), and
// the scalars the kernels read from the dispatch record (Step.mesh_*). Scalars C derives from the
// view (1 / cell size, the grid diagonal, the clamped margin) are derived here with Math.fround
// so they carry the same float bits as mesh.c / triangle_grid.c / mesh_collide.c.
import type { MeshColliderGrid } from '../core/world';
import { CELL_RECORD, ENTRY_RECORD, MESH_SECTIONS, STEP, TRIANGLE_RECORD, type MeshSectionName } from './layout';

const f = Math.fround;

export interface PackedMesh {
  readonly data: ArrayBuffer; // vec4<u32> records
  readonly sections: Readonly<Record<MeshSectionName, number>>; // start of each, in its unit
  readonly collider: MeshColliderGrid;
}

export function packMeshCollider(m: MeshColliderGrid): PackedMesh {
  const triangles = m.indices.length / 3;
  const cells = m.cellFlags.length;
  if (!Number.isInteger(triangles) || m.cellStart.length !== cells + 1 || cells !== m.dims[0] * m.dims[1] * m.dims[2]) {
    throw new Error('the mesh collider arrays do not match their counts');
  }
  const records = new Float32Array(triangles * TRIANGLE_RECORD.vec4s * 4);
  const vertexCount = m.vertices.length / 4;
  for (let t = 0; t < triangles; ++t) {
    const at = t * TRIANGLE_RECORD.vec4s * 4;
    for (let k = 0; k < 3; ++k) {
      const v = m.indices[3 * t + k];
      if (v >= vertexCount) throw new Error(`mesh triangle ${t} names vertex ${v} of ${vertexCount}`);
      records.set(m.vertices.subarray(4 * v, 4 * v + 4), at + 4 * (TRIANGLE_RECORD.corners + k));
    }
    records.set(m.faceNormals.subarray(4 * t, 4 * t + 4), at + 4 * TRIANGLE_RECORD.plane);
    records.set(m.triangleSpheres.subarray(4 * t, 4 * t + 4), at + 4 * TRIANGLE_RECORD.bound);
  }
  const entries = new Float32Array(m.cellTriangles.length * ENTRY_RECORD.vec4s * 4);
  m.cellTriangles.forEach((t, k) => {
    if (t >= triangles) throw new Error(`mesh grid entry ${k} names triangle ${t} of ${triangles}`);
    const at = k * ENTRY_RECORD.vec4s * 4;
    entries.set(m.faceNormals.subarray(4 * t, 4 * t + 4), at + 4 * ENTRY_RECORD.plane);
    entries.set(m.triangleSpheres.subarray(4 * t, 4 * t + 4), at + 4 * ENTRY_RECORD.bound);
    const corners = t * TRIANGLE_RECORD.vec4s * 4 + 4 * TRIANGLE_RECORD.corners;
    entries.set(records.subarray(corners, corners + 12), at + 4 * ENTRY_RECORD.corners);
  });
  const cellRecords = new Uint32Array(cells * 4);
  for (let c = 0; c < cells; ++c) {
    cellRecords[4 * c + CELL_RECORD.first] = m.cellStart[c];
    cellRecords[4 * c + CELL_RECORD.end] = Math.max(m.cellStart[c], m.cellStart[c + 1]);
    cellRecords[4 * c + CELL_RECORD.flag] = m.cellFlags[c];
  }
  const contents: Record<MeshSectionName, ArrayLike<number> & { length: number }> = {
    vertex_normals: m.normals,
    triangles: records,
    edge_normals: m.edgeNormals,
    spheres: m.spheres,
    indices: m.indices,
    cells: cellRecords,
    cell_triangles: m.cellTriangles,
    entries,
  };
  // Every section starts on a vec4 boundary; its length in words rounds up to one.
  const sections = {} as Record<MeshSectionName, number>;
  let words = 0;
  for (const s of MESH_SECTIONS) {
    sections[s.name] = s.unit === 'vec4' ? words / 4 : words;
    words += Math.ceil(contents[s.name].length / 4) * 4;
  }
  const data = new ArrayBuffer(Math.max(16, words * 4));
  const u = new Uint32Array(data),
    fl = new Float32Array(data);
  for (const s of MESH_SECTIONS) {
    const at = s.unit === 'vec4' ? sections[s.name] * 4 : sections[s.name];
    const src = contents[s.name];
    if (src instanceof Float32Array) fl.set(src, at);
    else u.set(src as ArrayLike<number>, at); // u32 arrays
  }
  return { data, sections, collider: m };
}

/// Writes the Step.mesh_* fields. enabled = false leaves the sphere count 0: no particle is near.
export function writeMeshRecord(record: ArrayBuffer, mesh: PackedMesh, collisionMargin: number, enabled: boolean): void {
  const fl = new Float32Array(record),
    u = new Uint32Array(record);
  const o = (name: string) => STEP.offsets[name] / 4;
  const m = mesh.collider;
  const cell = f(m.cellSize);
  const [dx, dy, dz] = m.dims.map((d) => f(d));
  // mesh.c: cell * sqrtf(dx² + dy² + dz²); triangle_grid.c: 1.0f / cell_size; mesh_collide.c: clamp_margin.
  const diagonal = f(cell * f(Math.sqrt(f(f(f(dx * dx) + f(dy * dy)) + f(dz * dz)))));
  const maxMargin = f(0.5 * cell);
  const margin = collisionMargin < 0 ? 0 : Math.min(f(collisionMargin), maxMargin);
  fl.set([m.origin.x, m.origin.y, m.origin.z, cell], o('mesh_grid'));
  fl.set([f(1 / cell), diagonal, margin, 0], o('mesh_params'));
  u.set([m.dims[0], m.dims[1], m.dims[2], m.closed ? 1 : 0], o('mesh_dims'));
  u.set([m.vertices.length / 4, m.indices.length / 3, enabled ? m.spheres.length / 4 : 0, m.cellFlags.length], o('mesh_counts'));
  u.set(
    MESH_SECTIONS.map((s) => mesh.sections[s.name]),
    o('mesh_sections'),
  );
}
