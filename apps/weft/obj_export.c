#include "obj_export.h"

#include <stdio.h>

bool export_cloth_obj(weft_world* world, const char* path) {
	FILE* file = fopen(path, "w");
	if (file == NULL) {
		return false;
	}
	weft_world_update_render_data(world);
	const int32_t n = weft_world_particle_count(world);
	const float* x = weft_world_positions(world);
	const float* uv = weft_world_uvs(world);
	const float* normal = weft_world_normals(world);
	const uint32_t* indices = weft_world_indices(world);
	fprintf(file, "# weft cloth, frame %lld, t = %.4f s\no cloth\n", (long long)weft_world_frame(world),
	        weft_world_time(world));
	for (int32_t p = 0; p < n; ++p) fprintf(file, "v %.6f %.6f %.6f\n", x[4 * p], x[4 * p + 1], x[4 * p + 2]);
	for (int32_t p = 0; p < n; ++p) fprintf(file, "vt %.6f %.6f\n", uv[2 * p], 1.0f - uv[2 * p + 1]);
	for (int32_t p = 0; p < n; ++p)
		fprintf(file, "vn %.5f %.5f %.5f\n", normal[4 * p], normal[4 * p + 1], normal[4 * p + 2]);
	for (int32_t t = 0; t < weft_world_index_count(world); t += 3) {
		unsigned a = indices[t] + 1, b = indices[t + 1] + 1, c = indices[t + 2] + 1;
		fprintf(file, "f %u/%u/%u %u/%u/%u %u/%u/%u\n", a, a, a, b, b, b, c, c, c);
	}
	return fclose(file) == 0;
}

// The core's unit sphere (weft_unit_sphere, as in the .glb), placed at c with radius r, appended
// after `base` vertices.
static int write_sphere(FILE* file, weft_vec3 c, float r, int base) {
	float positions[3 * WEFT_UNIT_SPHERE_VERTICES];
	uint32_t indices[3 * WEFT_UNIT_SPHERE_TRIANGLES];
	weft_unit_sphere(positions, indices);
	for (int v = 0; v < WEFT_UNIT_SPHERE_VERTICES; ++v) {
		const float* p = &positions[3 * v];
		fprintf(file, "v %.6f %.6f %.6f\n", c.x + r * p[0], c.y + r * p[1], c.z + r * p[2]);
	}
	for (int t = 0; t < WEFT_UNIT_SPHERE_TRIANGLES; ++t) {
		const uint32_t* tri = &indices[3 * t];
		fprintf(file, "f %d %d %d\n", base + (int)tri[0] + 1, base + (int)tri[1] + 1, base + (int)tri[2] + 1);
	}
	return WEFT_UNIT_SPHERE_VERTICES;
}

bool export_colliders_obj(const weft_world* world, const char* path) {
	FILE* file = fopen(path, "w");
	if (file == NULL) {
		return false;
	}
	fprintf(file, "# weft colliders as simulated, world space\n");
	int base = 0;
	weft_world_def def = weft_world_get_def(world);
	if (def.ground_enabled) {
		const float h = def.ground_height, s = 10.0f;
		fprintf(file, "o ground\nv %g %g %g\nv %g %g %g\nv %g %g %g\nv %g %g %g\nf 1 3 2\nf 1 4 3\n", -s, h, -s, s, h,
		        -s, s, h, s, -s, h, s);
		base += 4;
	}
	for (int32_t k = 0; k < weft_world_sphere_count(world); ++k) {
		weft_vec3 center;
		float radius;
		weft_world_get_sphere(world, (weft_sphere_id){k}, &center, &radius, NULL);
		fprintf(file, "o sphere%d\n", (int)k);
		base += write_sphere(file, center, radius, base);
	}
	weft_mesh_collider_view mesh;
	if (weft_world_mesh_collider(world, &mesh) == WEFT_OK) {
		fprintf(file, "o mesh\n");
		for (int32_t v = 0; v < mesh.vertex_count; ++v) {
			const float* p = mesh.vertices + 4 * v;
			fprintf(file, "v %.9g %.9g %.9g\n", p[0], p[1], p[2]);
		}
		for (int32_t t = 0; t < mesh.triangle_count; ++t) {
			const uint32_t* tri = mesh.indices + 3 * t;
			fprintf(file, "f %d %d %d\n", base + (int)tri[0] + 1, base + (int)tri[1] + 1, base + (int)tri[2] + 1);
		}
	}
	return fclose(file) == 0;
}
