// The colliders for one particle (collide.c: weft_collide, and with Step.ground.y = 0 its
// frictionless push-out): the finish of a substep (finish.wgsl) and the strain sweeps' push-out
// (strain_sweeps.wgsl) both call collide_particle. It reads only the Step record and, through
// collide_mesh, the mesh collider (mesh_collide.wgsl, or mesh_off.wgsl without one).

// collide.c: apply_friction.
fn friction(x: vec3f, start: vec3f, collider_motion: vec3f, n: vec3f) -> vec3f {
  let s = x - start - collider_motion;
  let along = s.x * n.x + s.y * n.y + s.z * n.z;
  return x - step.ground.y * (s - along * n);
}

// Spheres in order, then the ground, then the mesh (collide.c: weft_collide).
fn collide_particle(p: u32, x_in: vec4f, start: vec3f) -> vec4f {
  var x = x_in;
  if (x.w == 0.0) {
    return x;
  }
  let margin = step.ground.z;
  let sphere_count = min(step.misc.y, MAX_SPHERES);
  for (var k = 0u; k < sphere_count; k += 1u) {
    let c = step.spheres[k].xyz;
    let reach = step.spheres[k].w + margin;
    let d = x.xyz - c;
    let d2 = d.x * d.x + d.y * d.y + d.z * d.z;
    if (d2 >= reach * reach) {
      continue;
    }
    let dl = sqrt(d2);
    let n = select(vec3f(0.0, 1.0, 0.0), d / dl, dl > 1e-9);
    let pushed = c + n * reach;
    x = vec4f(friction(pushed, start, c - step.previous_spheres[k].xyz, n), x.w);
  }
  let floor_y = step.ground.x + margin;
  if (step.misc.z != 0u && x.y < floor_y) {
    let pushed = vec3f(x.x, floor_y, x.z);
    x = vec4f(friction(pushed, start, vec3f(0.0), vec3f(0.0, 1.0, 0.0)), x.w);
  }
  // The static triangle mesh last, as in C (mesh_collide.wgsl, or mesh_off.wgsl without one).
  return collide_mesh(p, x, start);
}
