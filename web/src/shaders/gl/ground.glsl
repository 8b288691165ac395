// GLSL twin of ground.wgsl (GROUND_* from shaderConstants()).
#ifdef VERTEX
out vec3 v_world;
void main() {
  vec2 corners[6] = vec2[6](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(1.0, 1.0), vec2(-1.0, -1.0), vec2(1.0, 1.0), vec2(-1.0, 1.0));
  vec2 c = corners[gl_VertexID] * GROUND_EXTENT + frame.eye.xz;
  v_world = vec3(c.x, frame.params.z, c.y);
  gl_Position = frame.view_projection * vec4(v_world, 1.0);
}
#else
in vec3 v_world;
out vec4 out_color;
void main() {
  vec2 cell = floor(v_world.xz * 2.0);
  int checker = (int(cell.x) + int(cell.y)) & 1;
  vec3 albedo = checker == 1 ? vec3(0.2, 0.205, 0.215) : vec3(0.16, 0.165, 0.175);
  float shadow = 1.0;
  for (int i = 0; i < MAX_SPHERES; i++) {
    if (i >= int(frame.params.w)) break;
    vec4 s = frame.spheres[i];
    float height = max(s.y - frame.params.z, 0.0);
    float d = length(v_world.xz - s.xz) / (s.w * (1.0 + height));
    shadow *= mix(0.45, 1.0, smoothstep(0.2, 1.1, d));
  }
  float light = 0.35 + 0.65 * max(frame.light_dir.y, 0.0);
  vec4 shaded = to_display(albedo * light * shadow);
  float solid = max(GROUND_SOLID, frame.eye.w);
  float fade = smoothstep(solid, solid + GROUND_FADE, length(v_world.xz - frame.eye.xz));
  out_color = vec4(mix(shaded.rgb, BACKGROUND, fade), 1.0);
}
#endif
