// Aerodynamics, the per-triangle stage (aerodynamics.c: weft_phase_aero_forces), operation by
// operation: each triangle's drag + lift in the substep's wind (Step.air_wind, from the core's
// weft_world_air_wind), a third to each corner, into the air section of `lambdas` (4 floats a
// triangle from Step.air_forces.x: force xyz, relative air speed). Integrate gathers them (air_on.wgsl).

// Bindings: BINDINGS.air in gpu/bindings.ts (declared ahead of this file).

fn air_finite(x: f32) -> bool {
  return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn air_forces(@builtin(global_invocation_id) id: vec3u,
              @builtin(num_workgroups) groups: vec3u) {
  let t = flat_index(id, groups);
  let base = step.air_forces.x + AIR_FLOATS_PER_TRIANGLE * t;
  if (t >= step.air_forces.y || 3u * t + 2u >= arrayLength(&indices) || base + 3u >= arrayLength(&lambdas)) {
    return;
  }
  let n = step.range.x;
  let a = indices[3u * t];
  let b = indices[3u * t + 1u];
  let c = indices[3u * t + 2u];
  if (a >= n || b >= n || c >= n) {
    return;
  }
  let xa = positions[a].xyz;
  let e1 = positions[b].xyz - xa;
  let e2 = positions[c].xyz - xa;
  let normal = vec3f(e1.y * e2.z - e1.z * e2.y, e1.z * e2.x - e1.x * e2.z, e1.x * e2.y - e1.y * e2.x);
  let twice_area = sqrt(normal.x * normal.x + normal.y * normal.y + normal.z * normal.z);
  let velocity = ((velocities[a].xyz + velocities[b].xyz) + velocities[c].xyz) * (1.0 / 3.0);
  let d = step.air_wind.xyz - velocity;
  let speed = sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
  // Degenerate or overflowing triangles feel no air.
  if (!(twice_area > 0.0 && air_finite(twice_area)) || !(speed > AIR_MIN_SPEED && air_finite(speed))) {
    lambdas[base] = 0.0;
    lambdas[base + 1u] = 0.0;
    lambdas[base + 2u] = 0.0;
    lambdas[base + 3u] = 0.0;
    return;
  }
  let unit_normal = normal * (1.0 / twice_area);
  let direction = d * (1.0 / speed);
  let cosine = unit_normal.x * direction.x + unit_normal.y * direction.y + unit_normal.z * direction.z;
  let pressure_area = step.air.y * speed * speed * (0.5 * twice_area); // q A
  let drag = direction * (pressure_area * step.air_wind.w * abs(cosine));
  let lift = (unit_normal - direction * cosine) * (pressure_area * step.air.x * cosine);
  let f = (drag + lift) * (1.0 / 3.0); // a third to each corner
  lambdas[base] = f.x;
  lambdas[base + 1u] = f.y;
  lambdas[base + 2u] = f.z;
  lambdas[base + 3u] = speed;
}
