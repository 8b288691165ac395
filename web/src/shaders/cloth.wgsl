// The cloth: positions, normals and strain straight from the solver's arrays; UVs from the core.
struct ClothVarying {
  @builtin(position) clip: vec4f,
  @location(0) world: vec3f,
  @location(1) normal: vec3f,
  @location(2) uv: vec2f,
  @location(3) strain: f32,
};

@vertex
fn vs_cloth(@location(0) position: vec4f, @location(1) normal: vec4f, @location(2) strain: f32,
            @location(3) uv: vec2f) -> ClothVarying {
  var out: ClothVarying;
  out.clip = frame.view_projection * vec4f(position.xyz, 1.0);
  out.world = position.xyz;
  out.normal = normal.xyz;
  out.uv = uv;
  out.strain = strain;
  return out;
}

// Velvet-like sheen (Charlie distribution) over a wrapped diffuse, plus a Fresnel rim.
fn shade_silk(n: vec3f, v: vec3f, l: vec3f, uv: vec2f, front: bool) -> vec3f {
  // The back is the same fabric, a little deeper (it was near-black: 0.22).
  let base = select(vec3f(0.36, 0.022, 0.07), vec3f(0.42, 0.025, 0.08), front);
  let sheen_color = vec3f(1.0, 0.62, 0.7);
  let weave = 0.94 + 0.06 * sin(uv.x * 300.0) * sin(uv.y * 300.0);
  let h = normalize(l + v);
  let n_dot_l = dot(n, l);
  let wrap = clamp((n_dot_l + 0.4) / 1.4, 0.0, 1.0);
  let n_dot_v = clamp(dot(n, v), 0.0, 1.0);
  let sin_h = sqrt(max(1.0 - pow(dot(n, h), 2.0), 0.0));
  let inv_r = 1.0 / 0.35;
  let charlie = (2.0 + inv_r) * pow(sin_h, inv_r) / (2.0 * PI);
  let sheen = sheen_color * charlie * max(n_dot_l, 0.0) * 0.3;
  let rim = sheen_color * pow(1.0 - n_dot_v, 4.0) * 0.25;
  let ambient = base * sky(n) * 0.3;
  return base * wrap * weave * LIGHT_COLOR + sheen + rim + ambient;
}

// Blue (compressed) → grey (rest length) → yellow → red (stretched by the full scale or more).
fn heat(strain: f32) -> vec3f {
  let t = clamp(strain / frame.params.y, -1.0, 1.0);
  if (t < 0.0) {
    return mix(HEAT_REST, HEAT_COMPRESSED, -t);
  }
  let warm = mix(HEAT_REST, HEAT_WARM, smoothstep(0.0, 0.5, t));
  return mix(warm, HEAT_HOT, smoothstep(0.5, 1.0, t));
}

// Cloth is thin and the room is lit all round: a back face turned from the key light is lit by its
// mirror image through the cloth's plane (it would otherwise get only the ambient: near-black, gold
// like brown cardboard).
fn back_light(n: vec3f, l: vec3f, front: bool) -> vec3f {
  let n_dot_l = dot(n, l);
  if (front || n_dot_l >= 0.0) {
    return l;
  }
  return l - 2.0 * n_dot_l * n;
}

@fragment
fn fs_cloth(in: ClothVarying, @builtin(front_facing) front: bool) -> @location(0) vec4f {
  // Double-sided: light the side we see.
  var n = normalize(in.normal);
  if (!front) {
    n = -n;
  }
  let v = normalize(frame.eye.xyz - in.world);
  let l = back_light(n, frame.light_dir.xyz, front);
  let mode = i32(frame.params.x);
  if (mode == MODE_NORMAL) {
    return vec4f(n * 0.5 + 0.5, 1.0);
  }
  var color: vec3f;
  if (mode == MODE_GOLD) {
    // Gold fabric, not a gold mirror: the woven threads scatter some light (wrapped diffuse), so a
    // side that only reflects the floor still reads as lit gold cloth.
    color = shade_gold(n, v, l) + GOLD_F0 * LIGHT_COLOR * clamp((dot(n, l) + 0.4) / 1.4, 0.0, 1.0) * GOLD_WEAVE;
  } else if (mode == MODE_STRAIN) {
    color = heat(in.strain) * (STRAIN_AMBIENT + STRAIN_DIFFUSE * max(dot(n, l), 0.0));
  } else {
    color = shade_silk(n, v, l, in.uv, front);
  }
  return to_display(color);
}
