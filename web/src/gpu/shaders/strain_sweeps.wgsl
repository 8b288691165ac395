// The frame-end strain sweeps (src/strain_sweeps.c), after strain_check.wgsl found a grid edge
// longer than rest × the trigger: the sweeps and their push-out are dispatched indirectly from the
// check's arguments, so a frame whose solve held the limit runs neither.
//
// strain_sweep: ONE workgroup runs every sweep, so the loop over sweeps, and the decision to stop,
// stay on the GPU (no read-back, no dispatch a sweep). A sweep shortens every grid edge longer than
// rest × the stretch limit to that length (inverse-mass weighted, as C), first along the rows (an
// invocation walks a row's edges in order, carrying the particle they share), then along the
// columns likewise; rows share no edge, nor do columns, so the walks need no atomics, only a
// barrier between the rows and the columns. Sweeps alternate their direction (forwards: left to
// right and top to bottom; backwards: the reverse), so a correction crosses the cloth in one sweep,
// as in C's space order (an order by colour moves it one edge a sweep). The sweeps stop when the
// longest edge a sweep found (before correcting it) was within the trigger, or after
// STRAIN_MAX_SWEEPS. The first sweep's row walks also keep every particle's position from before
// the sweeps (before(p): the second section of `predicted`, whose integrate data the frame no
// longer needs), and the sweeps run are added to strain_count (GpuSolver.strainSweeps).
// The walks are serial and C's order is another (each particle's edge to the right, then below):
// the GPU agrees with C physically, not to the bit.
//
// The push-out is the solve module's finish kernel with FLAG_STRAIN_PUSH (solve.wgsl), whose
// pipeline already holds the colliders (a second pipeline with the mesh collider took SwiftShader
// another ≈15 s to compile): a free particle the sweeps moved meets them again without friction
// (collide.wgsl: spheres, ground, then the mesh, as collide.c's push-out) from where it was before
// the sweeps (the mesh's continuous test), and its move δ over the sweeps and the push-out adds
// δ / dt to its velocity.

// Bindings: BINDINGS.strainSweeps in gpu/bindings.ts (declared ahead of this file).
// STRAIN_SWEEP_THREADS comes from solver.ts.

var<workgroup> sweep_worst: atomic<u32>; // the sweep's largest (length / rest)², as its f32 bits (≥ 0)
var<workgroup> sweep_worst_read: f32;

// Where particle p's position before the sweeps is kept (the second section of `predicted`).
fn before_index(p: u32) -> u32 {
  return particle_count() + p;
}

// Walks the `count` particles of a row (stride 1, the rest² of the edge to the right: axis 0) or
// a column (stride width, the edge below: axis 1) from `start`, forwards or backwards, shortening
// each edge longer than rest × the stretch limit to that length. Returns the largest
// (length / rest)² it found before correcting, over the edges with a free end. `first`: the
// sweeps' first walk over these particles, which keeps where they were (before_index).
fn walk_line(start: u32, stride: u32, count: u32, axis: u32, forward: bool, first: bool, limit2: f32) -> f32 {
  var worst = 0.0;
  var k = select(count - 1u, 0u, forward);
  var pa = start + k * stride;
  var a = positions[pa];
  if (first) {
    predicted[before_index(pa)] = a;
  }
  var a_moved = false;
  for (var e = 0u; e + 1u < count; e += 1u) {
    let kb = select(k - 1u, k + 1u, forward);
    let pb = start + kb * stride;
    var b = positions[pb];
    if (first) {
      predicted[before_index(pb)] = b;
    }
    var b_moved = false;
    let rest = strain_rest[min(pa, pb)];
    let rest2 = select(rest.x, rest.y, axis == 1u);
    let w = a.w + b.w;
    if (w != 0.0) {
      let d = a.xyz - b.xyz;
      let now2 = d.x * d.x + d.y * d.y + d.z * d.z;
      worst = max(worst, now2 / rest2);
      if (now2 > rest2 * limit2) {
        let length = sqrt(now2);
        let most = sqrt(rest2 * limit2);
        let s = (length - most) / (length * w);
        a = vec4f(a.xyz - (s * a.w) * d, a.w);
        b = vec4f(b.xyz + (s * b.w) * d, b.w);
        a_moved = true;
        b_moved = true;
      }
    }
    if (a_moved) {
      positions[pa] = a;
    }
    k = kb;
    pa = pb;
    a = b;
    a_moved = b_moved;
  }
  if (a_moved) {
    positions[pa] = a;
  }
  return worst;
}

@compute @workgroup_size(STRAIN_SWEEP_THREADS)
fn strain_sweep(@builtin(local_invocation_index) t: u32) {
  let w = step.grid.x;
  let h = step.grid.y;
  let limit2 = step.motion.z * step.motion.z;
  let trigger2 = step.strain.x * step.strain.x;
  let ok = w * h <= particle_count() && w * h <= arrayLength(&strain_rest) && 2u * particle_count() <= arrayLength(&predicted);
  var sweeps = 0u;
  for (var k = 0u; k < STRAIN_MAX_SWEEPS; k += 1u) {
    if (t == 0u) {
      atomicStore(&sweep_worst, 0u);
    }
    workgroupBarrier();
    let forward = k % 2u == 0u;
    var worst = 0.0;
    for (var v = t; ok && v < h; v += STRAIN_SWEEP_THREADS) {
      worst = max(worst, walk_line(v * w, 1u, w, 0u, forward, k == 0u, limit2));
    }
    storageBarrier(); // the rows' moves before the columns read them
    for (var u = t; ok && u < w; u += STRAIN_SWEEP_THREADS) {
      worst = max(worst, walk_line(u, w, h, 1u, forward, false, limit2));
    }
    atomicMax(&sweep_worst, bitcast<u32>(worst));
    storageBarrier(); // the columns' moves before the next sweep's rows read them
    workgroupBarrier();
    if (t == 0u) {
      sweep_worst_read = bitcast<f32>(atomicLoad(&sweep_worst));
    }
    sweeps = k + 1u;
    if (!(workgroupUniformLoad(&sweep_worst_read) > trigger2)) {
      break;
    }
  }
  if (t == 0u) {
    atomicAdd(&strain_count[0], sweeps);
  }
}
