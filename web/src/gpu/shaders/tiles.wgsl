// The tiled solve: one workgroup per group of particles (a tile of the grid), all colours of the
// group's constraints in its workgroup memory, with a workgroup barrier between colours instead of
// a dispatch. schedule.ts partitions the core's coloured constraints: a constraint goes to the first
// pass (tiling) in which both its particles fall in one group; groups of one pass share no particle,
// so a pass is one dispatch. This module is the only one with barriers (the GPU solver in
// docs/architecture.md).
//
// Pass A with FLAG_FINISH also ends the previous substep and starts this one for its tile (finish.wgsl
// then integrate): it reads the previous substep's solved positions (and motion sections) from
// `solved_in` and writes the new predictions (and motion) to `predicted`, the other buffer, so a particle finishing in one workgroup never
// races with a neighbour's new prediction in another.

// Bindings: BINDINGS.tiles in gpu/bindings.ts (declared ahead of this file).

var<workgroup> slots: array<vec4f, TILE_CAPACITY>;

fn solved(i: u32) -> vec4f {
  return solved_in[i];
}

fn word(k: u32) -> u32 {
  if (k >= arrayLength(&words)) {
    return NONE;
  }
  return words[k];
}

fn tile_constraint(k: u32) -> TileConstraint {
  if (k < arrayLength(&tile_constraints)) {
    return tile_constraints[k];
  }
  return TileConstraint(NONE, 0.0, 0.0, NONE);
}

fn solve_slot_constraint(c: TileConstraint, count: u32, inverse_h2: f32, accumulate: bool, store: bool) {
  let a = c.ab & 0xffffu;
  let b = c.ab >> 16u;
  if (a >= count || b >= count) {
    return;
  }
  let lambda_count = arrayLength(&lambdas);
  var lambda = 0.0;
  if (accumulate && c.index < lambda_count) {
    lambda = lambdas[c.index];
  }
  let r = project_distance(slots[a], slots[b], c.rest_length, c.compliance, lambda, inverse_h2);
  if (!r.valid) {
    return;
  }
  if (store && c.index < lambda_count) {
    lambdas[c.index] = lambda + r.delta_lambda;
  }
  slots[a] = vec4f(slots[a].xyz + r.da, slots[a].w);
  slots[b] = vec4f(slots[b].xyz + r.db, slots[b].w);
}

// Pass A's groups are whole tiles, so together they finish and integrate every particle exactly
// once (FLAG_FINISH). Pass B only loads the particles it touches.
//
// The steps are latency-bound (little work between barriers), so each invocation finds its
// constraint by arithmetic (fixed step stride, no offset loads) and loads the next step's while it
// solves this one. A colour is a matching, so a step has at most TILE_CAPACITY / 2 constraints and
// usually one per invocation; wider steps (large tiles) loop.
@compute @workgroup_size(TILE_WORKGROUP_SIZE)
fn solve_tiles(@builtin(workgroup_id) workgroup: vec3u,
               @builtin(num_workgroups) workgroups: vec3u,
               @builtin(local_invocation_index) local: u32) {
  let g = step.misc.w + workgroup.x + workgroup.y * workgroups.x;
  if (g >= step.range.z) {
    return;
  }
  // The group's header (GROUP_WORDS words at the start of `words`).
  let group = Group(word(g * GROUP_WORDS), word(g * GROUP_WORDS + 1u), word(g * GROUP_WORDS + 2u),
                    word(g * GROUP_WORDS + 3u), word(g * GROUP_WORDS + 4u));
  let count = min(group.particle_count, TILE_CAPACITY);
  let n = particle_count();
  let stride = group.stride;
  let first = group.constraint_start;

  var next = TileConstraint(NONE, 0.0, 0.0, NONE);
  if (local < stride && group.step_count > 0u) {
    next = tile_constraint(first + local);
  }

  let finish = (step.range.w & FLAG_FINISH) != 0u;
  for (var k = local; k < count; k += TILE_WORKGROUP_SIZE) {
    let p = word(group.particle_start + k);
    if (p >= n) {
      slots[k] = vec4f(0.0);
    } else if (finish) {
      // The previous substep's integrate left its sections in the other buffer (particle.wgsl).
      let r = finish_particle(p, Prediction(solved_in[3u * n + p], solved_in[n + p].xyz, solved_in[2u * n + p].xyz));
      positions[p] = r.x;
      let prediction = integrate_state(p, r.x, r.m);
      store_integrated(p, prediction);
      slots[k] = prediction.x;
    } else {
      slots[k] = predicted[p];
    }
  }
  workgroupBarrier();

  let h = step.gravity_h.w;
  let inverse_h2 = 1.0 / (h * h);
  let accumulate = (step.range.w & FLAG_ACCUMULATE_LAMBDA) != 0u;
  let store = (step.range.w & FLAG_STORE_LAMBDA) != 0u;
  for (var s = 0u; s < group.step_count; s += 1u) {
    let current = next;
    let base = first + s * stride;
    if (local < stride && s + 1u < group.step_count) {
      next = tile_constraint(base + stride + local);
    }
    solve_slot_constraint(current, count, inverse_h2, accumulate, store);
    for (var k = local + TILE_WORKGROUP_SIZE; k < stride; k += TILE_WORKGROUP_SIZE) {
      solve_slot_constraint(tile_constraint(base + k), count, inverse_h2, accumulate, store);
    }
    workgroupBarrier();
  }

  for (var k = local; k < count; k += TILE_WORKGROUP_SIZE) {
    let p = word(group.particle_start + k);
    if (p < n) {
      predicted[p] = slots[k];
    }
  }
}
