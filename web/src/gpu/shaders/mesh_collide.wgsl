// Push-out from the static triangle mesh: src/mesh_collide.c and src/closest_point.c, operation
// by operation (explicit dot products, same association, same branches) so the plain schedule
// stays bit-identical to the C solver. One invocation per particle, after the spheres and the
// ground (collide_particle in finish.wgsl), on the substep's start `start` → solved `x`:
//   bounding spheres (reject) → same-cell fast path → continuous crossing (first hit, 3 rounds)
//   → closest triangle within the margin by Voronoi regions, pseudo-normal side → push to the
//   margin → friction.
// The arrays are one packed buffer `mesh` (array<vec4u>, mesh.ts) the solve module binds; every read is
// bound-checked against the buffer and against its section's count, so a bad index reads zeros.
//
// Written for shader compilers as much as for the GPU: functions with loops have one exit, the
// search state is a private variable (no pointer parameters), grid coordinates are vector
// operations. Chromium's software WebGPU (SwiftShader) compiles this kernel in ≈15 s that way; the
// first, early-return version did not finish compiling within minutes. It also stays out of the
// barrier kernel of the tiled schedule (solver.ts), which SwiftShader compiles far more slowly.

// REGION_*, MESH_CELL_*, TRIANGLE_* and mesh_section_*() come from wgslMeshPrelude (gpu/layout.ts).
// Cells the searches may visit in one loop, whatever the inputs (a guard, not a tuning).
const MESH_MAX_SEARCH_ROUNDS: u32 = 32u;

fn mesh_vec4(i: u32) -> vec4f {
  if (i < arrayLength(&mesh)) {
    return bitcast<vec4f>(mesh[i]);
  }
  return vec4f(0.0);
}

fn mesh_word(w: u32) -> u32 {
  let i = w >> 2u;
  if (i < arrayLength(&mesh)) {
    return mesh[i][w & 3u];
  }
  return 0u;
}

fn dot3(a: vec3f, b: vec3f) -> f32 {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

fn cross3(a: vec3f, b: vec3f) -> vec3f {
  return vec3f(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

fn mesh_triangle_count() -> u32 {
  return step.mesh_counts.y;
}

// Item `item` of triangle t's TRIANGLE_RECORD (layout.ts): its corners, plane and bound.
fn triangle_item(t: u32, item: u32) -> vec4f {
  if (t >= mesh_triangle_count()) {
    return vec4f(0.0);
  }
  return mesh_vec4(mesh_section_triangles() + t * TRIANGLE_VEC4S + item);
}

fn mesh_corner(t: u32, corner: u32) -> vec3f {
  return triangle_item(t, TRIANGLE_CORNERS + corner).xyz;
}

// Unit normal n and -dot(n, v0) (face_normals).
fn mesh_face(t: u32) -> vec4f {
  return triangle_item(t, TRIANGLE_PLANE);
}

fn cell_count() -> u32 {
  return step.mesh_counts.w;
}

// Cell c's CELL_RECORD (layout.ts): its entries and class in one load (zeros past the grid).
fn cell_record(c: u32) -> vec4u {
  var r = vec4u(0u);
  if (c < cell_count()) {
    let i = mesh_section_cells() + c;
    if (i < arrayLength(&mesh)) {
      r = mesh[i];
    }
  }
  return r;
}

// [first, end) of cell c's entries in cell_triangles.
fn cell_range(c: u32) -> vec2u {
  let r = cell_record(c);
  return vec2u(r[CELL_FIRST], r[CELL_END]);
}

fn cell_triangle(k: u32) -> u32 {
  return mesh_word(mesh_section_cell_triangles() + k);
}

// Item `item` of grid entry k's ENTRY_RECORD (layout.ts): its triangle's plane and bound.
fn entry_item(k: u32, item: u32) -> vec4f {
  return mesh_vec4(mesh_section_entries() + k * ENTRY_VEC4S + item);
}

// Four consecutive grid entries k … k + 3 read at once (none of these loads waits on another, so
// they are in flight together; a chain of loads per entry was what the searches waited on): the
// entries' triangles, planes, bounds and corners, and which of them lie below `end` (bit j: entry
// k + j). The exact tests of the four then read nothing more.
struct Entries {
  lanes: u32,
  triangles: vec4u,
  plane0: vec4f,
  plane1: vec4f,
  plane2: vec4f,
  plane3: vec4f,
  bound0: vec4f,
  bound1: vec4f,
  bound2: vec4f,
  bound3: vec4f,
  a0: vec4f,
  a1: vec4f,
  a2: vec4f,
  a3: vec4f,
  b0: vec4f,
  b1: vec4f,
  b2: vec4f,
  b3: vec4f,
  c0: vec4f,
  c1: vec4f,
  c2: vec4f,
  c3: vec4f,
}

fn read_entries(k: u32, end: u32) -> Entries {
  let left = end - k;
  let lanes = select((1u << left) - 1u, 0xfu, left >= 4u);
  return Entries(
    lanes,
    vec4u(cell_triangle(k), cell_triangle(k + 1u), cell_triangle(k + 2u), cell_triangle(k + 3u)),
    entry_item(k, ENTRY_PLANE),
    entry_item(k + 1u, ENTRY_PLANE),
    entry_item(k + 2u, ENTRY_PLANE),
    entry_item(k + 3u, ENTRY_PLANE),
    entry_item(k, ENTRY_BOUND),
    entry_item(k + 1u, ENTRY_BOUND),
    entry_item(k + 2u, ENTRY_BOUND),
    entry_item(k + 3u, ENTRY_BOUND),
    entry_item(k, ENTRY_CORNERS),
    entry_item(k + 1u, ENTRY_CORNERS),
    entry_item(k + 2u, ENTRY_CORNERS),
    entry_item(k + 3u, ENTRY_CORNERS),
    entry_item(k, ENTRY_CORNERS + 1u),
    entry_item(k + 1u, ENTRY_CORNERS + 1u),
    entry_item(k + 2u, ENTRY_CORNERS + 1u),
    entry_item(k + 3u, ENTRY_CORNERS + 1u),
    entry_item(k, ENTRY_CORNERS + 2u),
    entry_item(k + 1u, ENTRY_CORNERS + 2u),
    entry_item(k + 2u, ENTRY_CORNERS + 2u),
    entry_item(k + 3u, ENTRY_CORNERS + 2u),
  );
}

fn pick4(v0: vec4f, v1: vec4f, v2: vec4f, v3: vec4f, j: u32) -> vec4f {
  return select(select(v0, v1, j == 1u), select(v2, v3, j == 3u), j >= 2u);
}

fn entry_bound(e: Entries, j: u32) -> vec4f {
  return pick4(e.bound0, e.bound1, e.bound2, e.bound3, j);
}

// Entry j's triangle: its corners.
fn entry_triangle(e: Entries, j: u32) -> Corners {
  return Corners(pick4(e.a0, e.a1, e.a2, e.a3, j).xyz, pick4(e.b0, e.b1, e.b2, e.b3, j).xyz,
                 pick4(e.c0, e.c1, e.c2, e.c3, j).xyz);
}

struct Corners {
  a: vec3f,
  b: vec3f,
  c: vec3f,
}

fn plane_distance(plane: vec4f, p: vec3f) -> f32 {
  return plane.x * p.x + plane.y * p.y + plane.z * p.z + plane.w;
}

// p's signed distance to each entry's plane.
fn entry_distances(e: Entries, p: vec3f) -> vec4f {
  return vec4f(plane_distance(e.plane0, p), plane_distance(e.plane1, p), plane_distance(e.plane2, p),
               plane_distance(e.plane3, p));
}

// test_triangle's first two tests (its expressions): could the triangle of plane distance s and
// bound `bound` come closer to p than the bound best_d2?
fn may_be_near(p: vec3f, s: f32, bound: vec4f, best_d2: f32) -> bool {
  var near = s * s < best_d2;
  let to_centre = p - bound.xyz;
  let centre_distance2 = dot3(to_centre, to_centre);
  if (near && centre_distance2 > bound.w * bound.w) {
    let gap = sqrt(centre_distance2) - bound.w;
    near = gap * gap < best_d2;
  }
  return near;
}

// Of the entries, those the closest-point test could keep (a bit each), against best_d2.
fn near_bits(e: Entries, p: vec3f, s: vec4f, best_d2: f32) -> u32 {
  var bits = 0u;
  bits |= select(0u, 1u, may_be_near(p, s.x, e.bound0, best_d2));
  bits |= select(0u, 2u, may_be_near(p, s.y, e.bound1, best_d2));
  bits |= select(0u, 4u, may_be_near(p, s.z, e.bound2, best_d2));
  bits |= select(0u, 8u, may_be_near(p, s.w, e.bound3, best_d2));
  return bits & e.lanes;
}

// Of the entries, those whose plane a path with end distances s0 and s1 is not wholly on one side
// of (segment_crosses' first test).
fn path_bits(e: Entries, s0: vec4f, s1: vec4f) -> u32 {
  let one_side = ((s0 > vec4f(0.0)) & (s1 > vec4f(0.0))) | ((s0 < vec4f(0.0)) & (s1 < vec4f(0.0)));
  let bits = select(vec4u(1u, 2u, 4u, 8u), vec4u(0u), one_side);
  return (bits.x | bits.y | bits.z | bits.w) & e.lanes;
}

fn dims() -> vec3i {
  return vec3i(step.mesh_dims.xyz);
}

// mesh.h: weft_triangle_grid_coordinate on the three axes (floor, clamped to ±1e6; NaN → −1e6), as vector
// operations rather than per-axis loops with dynamic indexing (see the note at the top).
fn grid_coordinates(p: vec3f) -> vec3i {
  let cell = (p - step.mesh_grid.xyz) * step.mesh_params.x;
  let truncated = vec3i(cell);
  var c = truncated - select(vec3i(0), vec3i(1), cell < vec3f(truncated));
  c = select(c, vec3i(1000000), cell > vec3f(1.0e6));
  return select(c, vec3i(-1000000), !(cell > vec3f(-1.0e6)));
}

fn in_grid(c: vec3i) -> bool {
  let d = dims();
  return c.x >= 0 && c.y >= 0 && c.z >= 0 && c.x < d.x && c.y < d.y && c.z < d.z;
}

fn cell_of(c: vec3i) -> u32 {
  let d = dims();
  return u32(c.x + d.x * (c.y + d.y * c.z));
}

fn cell_flag_at(c: u32) -> u32 {
  if (c >= cell_count()) {
    return MESH_CELL_FAR;
  }
  return cell_record(c)[CELL_FLAG];
}

fn cell_flag(p: vec3f) -> u32 {
  let c = grid_coordinates(p);
  if (!in_grid(c)) {
    return MESH_CELL_FAR;
  }
  return cell_flag_at(cell_of(c));
}

struct ClosestPoint {
  point: vec3f,
  region: u32,
}

// The point of segment [from, to] nearest p (closest_point.c's fallback for degenerate triangles):
// xyz the point, w its squared distance.
fn nearest_on_edge(p: vec3f, from_point: vec3f, to_point: vec3f) -> vec4f {
  let edge = to_point - from_point;
  let offset = p - from_point;
  let length2 = dot3(edge, edge);
  var t = 0.0;
  if (length2 > 0.0) {
    t = dot3(offset, edge) / length2;
  }
  t = select(select(t, 1.0, t > 1.0), 0.0, t < 0.0);
  let candidate = from_point + (to_point - from_point) * t;
  let diff = p - candidate;
  return vec4f(candidate, dot3(diff, diff));
}

// closest_point.c: weft_closest_point_on_triangle (Ericson 5.1.5), with one exit (see the top).
fn closest_point_on_triangle(p: vec3f, a: vec3f, b: vec3f, c: vec3f) -> ClosestPoint {
  let ab = b - a;
  let ac = c - a;
  let ap = p - a;
  let d1 = dot3(ab, ap);
  let d2 = dot3(ac, ap);
  var r = ClosestPoint(a, REGION_VERTEX_A);
  if (!(d1 <= 0.0 && d2 <= 0.0)) {
    let bp = p - b;
    let d3 = dot3(ab, bp);
    let d4 = dot3(ac, bp);
    let cp = p - c;
    let d5 = dot3(ab, cp);
    let d6 = dot3(ac, cp);
    let vc = d1 * d4 - d3 * d2;
    let vb = d5 * d2 - d1 * d6;
    let va = d3 * d6 - d5 * d4;
    if (d3 >= 0.0 && d4 <= d3) {
      r = ClosestPoint(b, REGION_VERTEX_B);
    } else if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 && d1 - d3 > 0.0) {
      r = ClosestPoint(a + (b - a) * (d1 / (d1 - d3)), REGION_EDGE_AB);
    } else if (d6 >= 0.0 && d5 <= d6) {
      r = ClosestPoint(c, REGION_VERTEX_C);
    } else if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 && d2 - d6 > 0.0) {
      r = ClosestPoint(a + (c - a) * (d2 / (d2 - d6)), REGION_EDGE_CA);
    } else if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 && (d4 - d3) + (d5 - d6) > 0.0) {
      r = ClosestPoint(b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6))), REGION_EDGE_BC);
    } else {
      let sum = va + vb + vc;
      if (sum > 0.0) {
        r = ClosestPoint(a + ab * (vb / sum) + ac * (vc / sum), REGION_FACE);
      } else {
        // Degenerate (collinear) triangle: the nearest of its edges (the first on ties).
        let e0 = nearest_on_edge(p, a, b);
        let e1 = nearest_on_edge(p, b, c);
        let e2 = nearest_on_edge(p, c, a);
        r = ClosestPoint(e0.xyz, REGION_EDGE_AB);
        var best = e0.w;
        if (e1.w < best) {
          r = ClosestPoint(e1.xyz, REGION_EDGE_BC);
          best = e1.w;
        }
        if (e2.w < best) {
          r = ClosestPoint(e2.xyz, REGION_EDGE_CA);
        }
      }
    }
  }
  return r;
}

// Pseudo-normal of the feature of triangle t that holds a closest point in `region`.
fn pseudo_normal(t: u32, region: u32) -> vec3f {
  if (t >= mesh_triangle_count()) {
    return vec3f(0.0);
  }
  if (region >= REGION_VERTEX_A && region <= REGION_VERTEX_C) {
    let v = mesh_word(mesh_section_indices() + 3u * t + (region - REGION_VERTEX_A));
    if (v >= step.mesh_counts.x) {
      return vec3f(0.0);
    }
    return mesh_vec4(mesh_section_vertex_normals() + v).xyz;
  }
  if (region >= REGION_EDGE_AB && region <= REGION_EDGE_CA) {
    return mesh_vec4(mesh_section_edge_normals() + 3u * t + (region - REGION_EDGE_AB)).xyz;
  }
  return mesh_face(t).xyz;
}

// The closest triangle found so far within the bound best_d2.
struct Closest {
  best_d2: f32,
  found: bool,
  triangle: u32,
  region: u32,
  point: vec3f,
}

// The search state lives in one private variable rather than behind pointer parameters.
var<private> closest: Closest;

fn closest_start(max_distance: f32) {
  closest = Closest(max_distance * max_distance * 1.0001, false, 0u, REGION_FACE, vec3f(0.0));
}

fn test_triangle(t: u32, p: vec3f, plane_distance: f32, bound: vec4f, corners: Corners) {
  // The plane distance is a lower bound, then the triangle's bounding sphere, then the exact test.
  var near = plane_distance * plane_distance < closest.best_d2 && t < mesh_triangle_count();
  if (near) {
    let to_centre = p - bound.xyz;
    let centre_distance2 = dot3(to_centre, to_centre);
    if (centre_distance2 > bound.w * bound.w) {
      let gap = sqrt(centre_distance2) - bound.w;
      near = gap * gap < closest.best_d2;
    }
  }
  if (near) {
    let q = closest_point_on_triangle(p, corners.a, corners.b, corners.c);
    let d = p - q.point;
    let d2 = dot3(d, d);
    if (d2 < closest.best_d2) {
      closest = Closest(d2, true, t, q.region, q.point);
    }
  }
}

// The entries four at a time, as C's scan_cell (plane_candidates): the prefilter's bits against
// the bound when the four are read, then test_triangle (against the bound as it shrinks) on those
// in order, so the same triangles are tested as one entry at a time. `range`: a cell's entries.
fn scan_range(range: vec2u, p: vec3f) {
  for (var k = range.x; k < range.y; k += 4u) {
    let e = read_entries(k, range.y);
    let s = entry_distances(e, p);
    let bits = near_bits(e, p, s, closest.best_d2);
    for (var rest = bits; rest != 0u; rest &= rest - 1u) {
      let j = countTrailingZeros(rest);
      test_triangle(e.triangles[j], p, s[j], entry_bound(e, j), entry_triangle(e, j));
    }
  }
}

// The cells lo … hi (none where hi < lo on an axis) one index each, x fastest, then y, then z (C's
// order).
fn box_cells(lo: vec3i, hi: vec3i) -> u32 {
  let extent = max(hi - lo + vec3i(1), vec3i(0));
  return u32(extent.x * extent.y * extent.z);
}

fn box_cell(lo: vec3i, hi: vec3i, i: u32) -> vec3i {
  let nx = u32(hi.x - lo.x + 1);
  let ny = u32(hi.y - lo.y + 1);
  let row = i / nx;
  return lo + vec3i(i32(i % nx), i32(row % ny), i32(row / ny));
}

struct MeshHit {
  found: bool,
  point: vec3f,
  normal: vec3f, // pseudo-normal of the feature holding the point
  distance2: f32,
}

// mesh_collide.c: closest_on_mesh_from. own_scanned: p's own cell is already in *state.
fn closest_on_mesh_from(p: vec3f, max_distance: f32, own_scanned: bool) -> MeshHit {
  var hit: MeshHit;
  hit.found = false;
  let c = grid_coordinates(p);
  let d = dims();
  let reach = max_distance;
  let pad = vec3i(i32(ceil(reach * step.mesh_params.x)));
  // Outside the grid's box by more than the reach: nothing can be that close.
  if (all(c >= -pad) && all(c < d + pad)) {
    let reach2 = reach * reach;
    var own = -1;
    if (in_grid(c)) {
      own = i32(cell_of(c));
    }
    // p's own cell first (unless scanned), then the neighbours that overlap the ball of the best
    // distance so far, in one loop: one cell scanned an iteration, so the scan appears once in
    // the kernel (shader compilers inline every call: SwiftShader's compile time grows with it).
    var scan_own = own >= 0 && !own_scanned;
    var boxed = false;
    var lo = vec3i(0);
    var hi = vec3i(-1);
    var cells = 0u;
    var i = 0u;
    let size = step.mesh_grid.w;
    loop {
      var range = vec2u(0u);
      if (scan_own) {
        range = cell_range(u32(own));
        scan_own = false;
      } else {
        if (!boxed) {
          let radius = sqrt(closest.best_d2);
          lo = max(grid_coordinates(p - vec3f(radius)), vec3i(0));
          hi = min(grid_coordinates(p + vec3f(radius)), d - vec3i(1));
          cells = box_cells(lo, hi);
          boxed = true;
        }
        if (i >= cells) {
          break;
        }
        let at = box_cell(lo, hi, i);
        i += 1u;
        // Distance from p to the cell's box (before touching the cell's memory); C sums the axes
        // from 0, and 0 + a is a: the same bits as g.x² + g.y² + g.z².
        let cell_lo = step.mesh_grid.xyz + size * vec3f(at);
        let g = select(select(vec3f(0.0), p - cell_lo - size, p > cell_lo + size), cell_lo - p, p < cell_lo);
        let gap2 = g.x * g.x + g.y * g.y + g.z * g.z;
        let cell = at.x + d.x * (at.y + d.y * at.z);
        if (gap2 < closest.best_d2 && cell != own) {
          range = cell_range(u32(cell));
        }
      }
      scan_range(range, p); // an empty range scans nothing
    }
    if (closest.found && closest.best_d2 <= reach2) {
      hit = MeshHit(true, closest.point, pseudo_normal(closest.triangle, closest.region), closest.best_d2);
    }
  }
  return hit;
}


// Where segment p0 → p0 + direction crosses triangle t (Möller–Trumbore), or -1.
fn segment_crosses(corners: Corners, p0: vec3f, direction: vec3f, s0: f32, s1: f32) -> f32 {
  var result = -1.0;
  // Both ends on one side of the triangle's plane: no crossing.
  if (!((s0 > 0.0 && s1 > 0.0) || (s0 < 0.0 && s1 < 0.0))) {
    let tolerance: f32 = 1e-5; // barycentric slack: a path through a shared edge hits one side
    let v0 = corners.a;
    let e1 = corners.b - v0;
    let e2 = corners.c - v0;
    let h = cross3(direction, e2);
    let det = dot3(e1, h);
    if (det != 0.0) {
      let inverse = 1.0 / det;
      let s = p0 - v0;
      let u = dot3(s, h) * inverse;
      let q = cross3(s, e1);
      let v = dot3(direction, q) * inverse;
      let hit = dot3(e2, q) * inverse;
      if (u >= -tolerance && u <= 1.0 + tolerance && v >= -tolerance && u + v <= 1.0 + tolerance && hit >= 0.0 && hit <= 1.0) {
        result = hit;
      }
    }
  }
  return result;
}

// p0 and p in one cell (its entries `range`): the crossing test and the closest triangle in one pass over it. True if
// the path crosses a triangle there (the general path takes over).
fn scan_cell_fused(range: vec2u, p0: vec3f, p: vec3f) -> bool {
  let direction = p - p0;
  let moving = direction.x != 0.0 || direction.y != 0.0 || direction.z != 0.0;
  var crossed = false;
  for (var k = range.x; k < range.y && !crossed; k += 4u) {
    let e = read_entries(k, range.y);
    let s1 = entry_distances(e, p);
    let s0 = entry_distances(e, p0);
    var bits = near_bits(e, p, s1, closest.best_d2);
    if (moving) {
      bits |= path_bits(e, s0, s1);
    }
    for (var rest = bits; rest != 0u && !crossed; rest &= rest - 1u) {
      let j = countTrailingZeros(rest);
      let t = e.triangles[j];
      let corners = entry_triangle(e, j);
      crossed = moving && segment_crosses(corners, p0, direction, s0[j], s1[j]) >= 0.0;
      if (!crossed) {
        test_triangle(t, p, s1[j], entry_bound(e, j), corners);
      }
    }
  }
  return crossed;
}

struct Crossing {
  found: bool,
  t: f32,
  triangle: u32,
}

// First crossing of p0 → p1 over the cells the segment's box overlaps.
fn first_crossing(p0: vec3f, p1: vec3f) -> Crossing {
  let d = dims();
  let a = grid_coordinates(min(p0, p1));
  let b = grid_coordinates(max(p0, p1));
  // A box outside the grid loops over nothing.
  let lo = max(a, vec3i(0));
  let hi = min(b, d - vec3i(1));
  let direction = p1 - p0;
  var best = Crossing(false, 0.0, 0u);
  for (var z = lo.z; z <= hi.z; z += 1) {
    for (var y = lo.y; y <= hi.y; y += 1) {
      for (var x = lo.x; x <= hi.x; x += 1) {
        let range = cell_range(u32(x + d.x * (y + d.y * z)));
        for (var k = range.x; k < range.y; k += 4u) {
          let e = read_entries(k, range.y);
          let s0 = entry_distances(e, p0);
          let s1 = entry_distances(e, p1);
          let bits = path_bits(e, s0, s1);
          for (var rest = bits; rest != 0u; rest &= rest - 1u) {
            let j = countTrailingZeros(rest);
            let hit = segment_crosses(entry_triangle(e, j), p0, direction, s0[j], s1[j]);
            if (hit >= 0.0 && (!best.found || hit < best.t)) {
              best = Crossing(true, hit, e.triangles[j]);
            }
          }
        }
      }
    }
  }
  return best;
}

// False when p0 → p1 lies in one empty cell or two face-adjacent empty ones: it cannot cross.
fn may_cross(p0: vec3f, p1: vec3f) -> bool {
  let a = grid_coordinates(p0);
  let b = grid_coordinates(p1);
  let steps = abs(a.x - b.x) + abs(a.y - b.y) + abs(a.z - b.z);
  if (steps > 1) {
    return true;
  }
  let fa = cell_flag(p0);
  let fb = cell_flag(p1);
  return fa == MESH_CELL_SURFACE || fb == MESH_CELL_SURFACE;
}

// Does p0 → p1 come within a bounding sphere? (The end point first: the usual hit.)
fn near_mesh(p0: vec3f, p1: vec3f) -> bool {
  let count = step.mesh_counts.z;
  let first = mesh_section_spheres();
  var near = false;
  for (var s = 0u; s < count && !near; s += 1u) {
    let sphere = mesh_vec4(first + s);
    let offset = p1 - sphere.xyz;
    near = dot3(offset, offset) <= sphere.w * sphere.w;
  }
  let d = p1 - p0;
  let length2 = dot3(d, d);
  var inverse = 0.0;
  if (length2 > 0.0) {
    inverse = 1.0 / length2;
  }
  for (var s = 0u; s < count && !near; s += 1u) {
    let sphere = mesh_vec4(first + s);
    let c = sphere.xyz;
    var t = dot3(c - p0, d) * inverse;
    t = select(select(t, 1.0, t > 1.0), 0.0, t < 0.0);
    let offset = (p0 + d * t) - c;
    near = dot3(offset, offset) <= sphere.w * sphere.w;
  }
  return near;
}

// What the push-out of one particle found: its position, whether it touched the mesh, and with no
// contact a lower bound on its distance to the surface (0: none looked for).
struct MeshPush {
  p: vec3f,
  contact: bool,
  clearance: f32,
}

// mesh_collide.c: collide_point for a particle moving p0 → p_in this substep, then, with no contact
// and a short step, clearance_at. The closest-triangle searches (the fast path's neighbours, the
// general path's, each radius of the outward search, the clearance's) are rounds of one loop
// around one call: shader compilers inline every call, and SwiftShader's compile time grows with
// the code.
fn collide_mesh_point(p0: vec3f, p_in: vec3f) -> MeshPush {
  var p = p_in;
  let margin = step.mesh_params.z;
  let closed = step.mesh_dims.w != 0u;
  let size = step.mesh_grid.w;
  var normal = vec3f(0.0);
  var contact = false;
  var hit: MeshHit;
  hit.found = false;

  // The contact search to run: `rounds` rounds from `reach` (the outward search doubles it each
  // round while below `limit`), the first on the state the fast path left when `own_scanned`.
  var rounds = 0u;
  var reach = margin;
  var own_scanned = false;
  var outward = false;
  let limit = 2.0 * step.mesh_params.y;

  // Fast path: p0 and p in the same surface cell, one pass for the crossing and the closest.
  var resolved = false;
  let c0 = grid_coordinates(p0);
  let c = grid_coordinates(p);
  var own = vec4u(0u, 0u, MESH_CELL_FAR, 0u);
  if (in_grid(c)) {
    own = cell_record(cell_of(c));
  }
  if (all(c == c0) && own[CELL_FLAG] == MESH_CELL_SURFACE) {
    closest_start(margin);
    if (!scan_cell_fused(vec2u(own[CELL_FIRST], own[CELL_END]), p0, p)) {
      rounds = 1u;
      own_scanned = true;
      resolved = true;
    }
  }

  if (!resolved) {
    // A correction can cross another face in a concave crease: a few rounds until the path is clear.
    var clear = false;
    for (var round = 0u; round < 3u && !clear; round += 1u) {
      var crossing = Crossing(false, 0.0, 0u);
      if ((p.x != p0.x || p.y != p0.y || p.z != p0.z) && may_cross(p0, p)) {
        crossing = first_crossing(p0, p);
      }
      if (!crossing.found) {
        clear = true;
        continue;
      }
      let n = mesh_face(crossing.triangle).xyz;
      let at = p0 + (p - p0) * crossing.t;
      let height = dot3(p - at, n);
      if (dot3(p0 - at, n) >= 0.0) {
        p = p + n * (margin - height);
        normal = n;
        contact = true;
      } else if (!closed) {
        p = p + n * (-margin - height);
        normal = n * -1.0;
        contact = true;
      } else {
        clear = true; // leaving a closed mesh: let it
      }
    }
    let flag = cell_flag(p);
    if (flag == MESH_CELL_INSIDE) {
      // Released inside the solid: search outwards until the surface turns up.
      rounds = MESH_MAX_SEARCH_ROUNDS;
      reach = size;
      outward = true;
    } else if (flag != MESH_CELL_FAR) {
      rounds = 1u;
    }
  }

  // Then, with no contact where the particle moved little, the clearance's search.
  let short_step = distance_to(p0, p_in) < 0.25 * (size - margin);
  var clearance = 0.0;
  var clearing = false; // the contact search is over
  var k = 0u;
  for (var guard = 0u; guard < MESH_MAX_SEARCH_ROUNDS + 2u; guard += 1u) {
    var search = false;
    if (!clearing) {
      search = k < rounds && !hit.found && (!outward || reach < limit);
      if (!search) {
        // The contact search is over: push out to the margin.
        if (hit.found) {
          let offset = p - hit.point;
          let d = sqrt(hit.distance2);
          let side = dot3(offset, hit.normal);
          let inside = closed && side < 0.0;
          if (inside || d < margin) {
            var direction: vec3f;
            if (d > 1e-7) {
              direction = offset * (select(1.0, -1.0, inside) / d);
            } else if (side < 0.0 && !closed) {
              direction = hit.normal * -1.0;
            } else {
              direction = hit.normal;
            }
            p = hit.point + direction * margin;
            normal = direction;
            contact = true;
          }
        }
        clearing = true;
        guard = MESH_MAX_SEARCH_ROUNDS; // one round left: the clearance's
        if (!contact && short_step) {
          clearance = size; // a FAR cell's (or a point outside the grid: a cell from any triangle)
          if (cell_flag(p) != MESH_CELL_FAR) {
            search = true;
            reach = CLEARANCE_REACH * size;
            own_scanned = false;
          }
        }
      }
    }
    if (search) {
      if (!own_scanned) {
        closest_start(reach);
      }
      let found = closest_on_mesh_from(p, reach, own_scanned);
      own_scanned = false;
      if (clearing) {
        // The closest triangle within the reach, or the reach (the search is exact: the GPU reads
        // every triangle a cell lists).
        clearance = select(reach, sqrt(found.distance2), found.found);
      } else {
        hit = found;
        k += 1u;
        if (outward) {
          reach *= 2.0;
        }
      }
    }
  }

  if (!contact) {
    p = p_in;
  } else {
    // Friction as for the ground and spheres (mesh_collide.c: with_friction): the mesh is static;
    // a slip of at most friction × the push along the normal stops.
    let motion = p - p0;
    let tangential = motion - normal * dot3(motion, normal);
    let hold = step.ground.y * dot3(p - p_in, normal);
    p = p - tangential * select(step.ground.y, 1.0, dot3(tangential, tangential) <= hold * hold);
  }
  if (clearance > 0.0) {
    // Shrunk for the rounding of the distances.
    clearance = clearance * (1.0 - CLEARANCE_SLACK) - CLEARANCE_SLACK * size;
  }
  return MeshPush(p, contact, clearance);
}

// Clearances (mesh_collide.c): a particle that was farther than L from the surface at a point a
// can be no nearer than L − |x − a| anywhere; if that stays above the margin along its whole path
// p0 → p this substep (the path lies within max(|p0 − a|, |p − a|) of a), it can neither cross the
// surface nor come within the margin, and collide_mesh_point would leave it as it is: it is
// skipped. A bound holds for its point whatever the particle does since, so it needs no reset.
// Particle p's is in the solve module's prediction buffer (MESH_CLEARANCE in layout.ts).
fn clearance_index(p: u32) -> u32 {
  return CLEARANCE_SECTION * particle_count() + p;
}

fn distance_to(a: vec3f, p: vec3f) -> f32 {
  let dx = p.x - a.x;
  let dy = p.y - a.y;
  let dz = p.z - a.z;
  return sqrt(dx * dx + dy * dy + dz * dz);
}

// What is left of a clearance along the path p0 → p (≤ 0: unknown or used up).
fn clearance_left(clearance: vec4f, p0: vec3f, p: vec3f) -> f32 {
  var left = 0.0;
  if (clearance.w > 0.0) {
    left = clearance.w - max(distance_to(clearance.xyz, p0), distance_to(clearance.xyz, p));
  }
  return left;
}

// The module's entry from collide_particle (finish.wgsl) for particle p (pinned and grabbed
// particles never get here): the push-out unless the clearance rules it out, then the clearance
// for the next substeps (mesh_collide.c: collide_particles).
fn collide_mesh(p: u32, x: vec4f, start: vec3f) -> vec4f {
  var result = x;
  let k = clearance_index(p);
  let margin = step.mesh_params.z;
  // No bounding spheres: mesh collision is off (GpuSolver.meshEnabled).
  let on = step.mesh_counts.z != 0u && x.w != 0.0 && k < arrayLength(&predicted);
  if (on && !(clearance_left(predicted[k], start, x.xyz) > margin) && near_mesh(start, x.xyz)) {
    let push = collide_mesh_point(start, x.xyz);
    result = vec4f(push.p, x.w);
    // The point's clearance where the particle did not touch and moved little (worth a wider
    // search only where it may last a few substeps), else none. (Away from the bounding spheres
    // the old one stays: a bound holds for its point.)
    predicted[k] = select(vec4f(0.0), vec4f(push.p, push.clearance), push.clearance > 0.0);
  }
  return result;
}
