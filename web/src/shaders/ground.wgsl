// The ground plane: a large quad at the ground height around the eye, a soft checker that fades into
// the background beyond the point looked at (however far the camera backs off, the cloth stands on
// it), with contact shadows under the spheres. GROUND_* come from shaderConstants() (render/modes.ts).
struct GroundVarying {
  @builtin(position) clip: vec4f,
  @location(0) world: vec3f,
};

@vertex
fn vs_ground(@builtin(vertex_index) index: u32) -> GroundVarying {
  var corners = array<vec2f, 6>(vec2f(-1.0, -1.0), vec2f(1.0, -1.0), vec2f(1.0, 1.0),
                                vec2f(-1.0, -1.0), vec2f(1.0, 1.0), vec2f(-1.0, 1.0));
  let c = corners[index] * GROUND_EXTENT + frame.eye.xz;
  var out: GroundVarying;
  out.world = vec3f(c.x, frame.params.z, c.y);
  out.clip = frame.view_projection * vec4f(out.world, 1.0);
  return out;
}

@fragment
fn fs_ground(in: GroundVarying) -> @location(0) vec4f {
  let cell = floor(in.world.xz * 2.0);
  let checker = (i32(cell.x) + i32(cell.y)) & 1;
  var albedo = select(vec3f(0.16, 0.165, 0.175), vec3f(0.2, 0.205, 0.215), checker == 1);
  var shadow = 1.0;
  for (var i = 0; i < i32(frame.params.w); i++) {
    let s = frame.spheres[i];
    let height = max(s.y - frame.params.z, 0.0);
    let d = length(in.world.xz - s.xz) / (s.w * (1.0 + height));
    shadow *= mix(0.45, 1.0, smoothstep(0.2, 1.1, d));
  }
  let light = 0.35 + 0.65 * max(frame.light_dir.y, 0.0);
  let color = albedo * light * shadow;
  let solid = max(GROUND_SOLID, frame.eye.w);
  let fade = smoothstep(solid, solid + GROUND_FADE, length(in.world.xz - frame.eye.xz));
  let shaded = to_display(color);
  return vec4f(mix(shaded.rgb, BACKGROUND, fade), 1.0);
}
