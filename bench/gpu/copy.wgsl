// The bandwidth ceiling of the GPU benchmark: a plain copy of as many bytes as the solver's arrays
// hold, one vec4 per invocation, so "ms/frame" can be set against "ms to move the same bytes".
override WORKGROUP_SIZE: u32 = 256u;

@group(0) @binding(0) var<storage, read> source: array<vec4u>;
@group(0) @binding(1) var<storage, read_write> destination: array<vec4u>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn copy(@builtin(global_invocation_id) id: vec3u, @builtin(num_workgroups) groups: vec3u) {
  let i = id.x + id.y * groups.x * WORKGROUP_SIZE;
  if (i < arrayLength(&source) && i < arrayLength(&destination)) {
    destination[i] = source[i];
  }
}
