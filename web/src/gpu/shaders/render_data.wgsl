// Render data straight from the GPU positions (render_data.c): area-weighted vertex normals and the
// per-vertex strain for the heatmap. C scatters per triangle / per constraint; a GPU has no float
// atomics, so each vertex gathers instead, through adjacency lists the core builds once
// (weft_world_render_adjacency in weft.h; ascending order: the same sums in the same order).
//
// adjacency words: [0, n]      first triangle entry of each vertex (n + 1 offsets)
//                  ...         triangle numbers
//                  [range.y,  ] first stretch-constraint entry of each vertex (n + 1 offsets)
//                  ...         constraint indices

// Bindings: BINDINGS.renderData in gpu/bindings.ts (declared ahead of this file).

fn adjacency_word(k: u32) -> u32 {
  return select(0u, adjacency[k], k < arrayLength(&adjacency));
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn render_data(@builtin(global_invocation_id) id: vec3u,
        @builtin(num_workgroups) groups: vec3u) {
  let p = flat_index(id, groups);
  let n = step.range.x;
  if (p >= n || p >= arrayLength(&normals) || p >= arrayLength(&strain)) {
    return;
  }
  var sum = vec3f(0.0);
  let triangle_count = arrayLength(&indices) / 3u;
  for (var e = adjacency_word(p); e < adjacency_word(p + 1u); e += 1u) {
    let t = adjacency_word(e);
    if (t >= triangle_count) {
      continue;
    }
    let i0 = indices[3u * t];
    let i1 = indices[3u * t + 1u];
    let i2 = indices[3u * t + 2u];
    if (i0 >= n || i1 >= n || i2 >= n) {
      continue;
    }
    let a = positions[i0].xyz;
    let u = positions[i1].xyz - a;
    let v = positions[i2].xyz - a;
    sum += vec3f(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x);
  }
  let length = sqrt(sum.x * sum.x + sum.y * sum.y + sum.z * sum.z);
  if (length > 1e-20) {
    normals[p] = vec4f(sum / length, 0.0);
  } else {
    normals[p] = vec4f(0.0, 0.0, 1.0, 0.0);
  }

  let base = step.range.y;
  var total = 0.0;
  let first = adjacency_word(base + p);
  let end = adjacency_word(base + p + 1u);
  for (var e = first; e < end; e += 1u) {
    let k = adjacency_word(e);
    if (k >= arrayLength(&constraints)) {
      continue;
    }
    let c = constraints[k];
    if (c.a >= n || c.b >= n) {
      continue;
    }
    let d = positions[c.a].xyz - positions[c.b].xyz;
    total += (sqrt(d.x * d.x + d.y * d.y + d.z * d.z) - c.rest_length) / c.rest_length;
  }
  strain[p] = select(total, total / f32(end - first), end > first);
}
