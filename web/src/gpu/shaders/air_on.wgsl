// The air's acceleration of particle p in integrate (aerodynamics.c: weft_aero_acceleration, and
// the clamp of solver.c's weft_phase_integrate): the sum of its six grid triangles' thirds (the air
// section of `lambdas`, air.wgsl) × inverse mass, scaled so one kick never makes the particle's
// speed relative to the wind grow (|d − s Δv| ≤ |d|), zero when not finite.
fn air_force(t: u32) -> vec3f {
  let b = step.air_forces.x + AIR_FLOATS_PER_TRIANGLE * t;
  if (b + 2u >= arrayLength(&lambdas)) {
    return vec3f(0.0);
  }
  return vec3f(lambdas[b], lambdas[b + 1u], lambdas[b + 2u]);
}

fn air_is_finite(x: f32) -> bool {
  return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u;
}

fn air_acceleration(p: u32, v: vec3f, inverse_mass: f32, kick: f32) -> vec3f {
  if (step.air_forces.y == 0u) {
    return vec3f(0.0);
  }
  // Quad q = j (w−1) + i holds triangles 2q (p00, p01, p10) and 2q + 1 (p10, p01, p11).
  let w = step.grid.x;
  let h = step.grid.y;
  let i = p % w;
  let j = p / w;
  let quads = w - 1u;
  var force = vec3f(0.0);
  if (i + 1u < w && j + 1u < h) {
    force = force + air_force(2u * (j * quads + i));
  }
  if (i > 0u && j + 1u < h) {
    force = force + air_force(2u * (j * quads + i - 1u));
    force = force + air_force(2u * (j * quads + i - 1u) + 1u);
  }
  if (i + 1u < w && j > 0u) {
    force = force + air_force(2u * ((j - 1u) * quads + i));
    force = force + air_force(2u * ((j - 1u) * quads + i) + 1u);
  }
  if (i > 0u && j > 0u) {
    force = force + air_force(2u * ((j - 1u) * quads + i - 1u) + 1u);
  }
  var a = force * inverse_mass;
  let relative = step.air_wind.xyz - v;
  let change = a * kick;
  let along = relative.x * change.x + relative.y * change.y + relative.z * change.z;
  let size2 = change.x * change.x + change.y * change.y + change.z * change.z;
  if (!air_is_finite(size2) || !(air_is_finite(along) || along < 0.0)) {
    a = vec3f(0.0); // beyond float range: no direction to trust
  } else if (size2 > 0.0 && !(2.0 * along >= size2)) {
    a = a * select(0.0, 2.0 * along / size2, along > 0.0);
  }
  return a;
}
