// Winding of the mesh collider (mesh_orient.c): a closed mesh collides the same whatever the
// winding of its file (inward, outward or mixed), and an open one stays two-sided.
#include <stdlib.h>
#include <string.h>

#include "mesh.h"
#include "test.h"

// The pyramid of issue 12: base 2 × 2 on y = 0, apex at y = 1.5. Faces as the issue gives them,
// wound clockwise seen from outside (inward).
static const float pyramid[15] = {-1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1, 0, 1.5f, 0};
static const uint32_t pyramid_inward[18] = {0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4, 0, 2, 1, 0, 3, 2};

// The pyramid with triangle t wound inward where bit t of `inward` is set, outward elsewhere.
static void pyramid_faces(unsigned inward, uint32_t out[18]) {
	for (int t = 0; t < 6; t++) {
		const uint32_t* tri = pyramid_inward + 3 * t;
		bool keep = (inward >> t) & 1u;
		out[3 * t] = tri[0];
		out[3 * t + 1] = keep ? tri[1] : tri[2];
		out[3 * t + 2] = keep ? tri[2] : tri[1];
	}
}

// Strictly inside the pyramid by more than `depth` (in double, from the outward faces).
static bool inside_pyramid(const float p[3], double depth) {
	uint32_t faces[18];
	pyramid_faces(0, faces);
	for (int t = 0; t < 6; t++) {
		const float* a = pyramid + 3 * faces[3 * t];
		const float* b = pyramid + 3 * faces[3 * t + 1];
		const float* c = pyramid + 3 * faces[3 * t + 2];
		double u[3], v[3], n[3];
		for (int k = 0; k < 3; k++) u[k] = (double)b[k] - a[k], v[k] = (double)c[k] - a[k];
		n[0] = u[1] * v[2] - u[2] * v[1];
		n[1] = u[2] * v[0] - u[0] * v[2];
		n[2] = u[0] * v[1] - u[1] * v[0];
		double length = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
		double side = (n[0] * (p[0] - a[0]) + n[1] * (p[1] - a[1]) + n[2] * (p[2] - a[2])) / length;
		if (side > -depth) return false;
	}
	return true;
}

// A 3 m cloth dropped onto the pyramid for `frames` frames; counts the particles inside it by more
// than 1 mm, and gives the state hash.
static int drop_cloth(const uint32_t faces[18], int frames, uint64_t* out_hash) {
	weft_world_def def = weft_default_world_def();
	weft_cloth_def cloth = weft_default_cloth_def();
	cloth.width = cloth.height = 24;
	cloth.size_u = cloth.size_v = 3.0f;
	cloth.origin = (weft_vec3){-1.5f, 2.0f, -1.5f};
	cloth.axis_u = (weft_vec3){1.0f, 0.0f, 0.0f};
	cloth.axis_v = (weft_vec3){0.0f, 0.0f, 1.0f};
	cloth.pin = WEFT_PIN_NONE;
	weft_world* world = NULL;
	CHECK(weft_world_create(&def, &cloth, &world) == WEFT_OK);
	if (world == NULL) return -1;
	CHECK(weft_world_set_mesh_collider(world, pyramid, 5, faces, 6, false) == WEFT_OK);
	for (int f = 0; f < frames; f++) weft_world_step(world, 1.0f / 60.0f);
	int inside = 0;
	const float* x = weft_world_positions(world);
	for (int32_t i = 0; i < weft_world_particle_count(world); i++) inside += inside_pyramid(x + 4 * i, 0.001);
	*out_hash = weft_world_state_hash(world);
	weft_world_destroy(world);
	return inside;
}

TEST(pyramid_any_winding) {
	// Outward (as a well-made file), inward (the file), and two mixed windings: the cloth
	// drapes over the pyramid in every case, and the collider is the same, so the bits are too.
	const unsigned windings[] = {0x00, 0x3f, 0x15, 0x30};
	uint64_t reference = 0;
	for (size_t k = 0; k < sizeof windings / sizeof windings[0]; k++) {
		uint32_t faces[18];
		pyramid_faces(windings[k], faces);
		uint64_t hash = 0;
		int inside = drop_cloth(faces, 240, &hash);
		printf("pyramid wound 0x%02x: %d particles inside after 240 frames\n", windings[k], inside);
		CHECK(inside == 0);
		if (k == 0) reference = hash;
		CHECK(hash == reference);
	}
}

// Every face normal of a collider points away from `centre`.
static bool all_outward(const weft_mesh_collider* mesh, const float centre[3]) {
	for (int32_t t = 0; t < mesh->triangle_count; t++) {
		const float* n = mesh->face_normals + 4 * t;
		const float* a = mesh->vertices + 4 * mesh->indices[3 * t];
		float d = n[0] * (a[0] - centre[0]) + n[1] * (a[1] - centre[1]) + n[2] * (a[2] - centre[2]);
		if (!(d > 0.0f)) return false;
	}
	return true;
}

TEST(mixed_winding_made_consistent) {
	weft_allocator allocator = weft_resolve_allocator((weft_allocator){0});
	const float margin = 0.005f;
	const float centre[3] = {0.0f, 0.3f, 0.0f};
	// Every one of the 64 windings of the pyramid: closed, every face outward.
	for (unsigned inward = 0; inward < 64; inward++) {
		uint32_t faces[18];
		pyramid_faces(inward, faces);
		weft_mesh_collider* mesh = NULL;
		CHECK(weft_mesh_collider_create(&allocator, pyramid, 5, faces, 6, margin, &mesh) == WEFT_OK);
		if (mesh == NULL) continue;
		CHECK(mesh->closed);
		CHECK(all_outward(mesh, centre));
		// Just inside the base, the signed distance says inside.
		const float below_apex[3] = {0.0f, 0.01f, 0.0f};
		float d = 0.0f;
		CHECK(weft_mesh_signed_distance(mesh, below_apex, &d) && d < 0.0f);
		weft_mesh_collider_destroy(mesh, &allocator);
	}
	// Two pyramids side by side in one mesh, one inward and one outward: each piece outward.
	{
		float two[30];
		uint32_t faces[36];
		memcpy(two, pyramid, sizeof pyramid);
		for (int v = 0; v < 5; v++) {
			two[15 + 3 * v] = pyramid[3 * v] + 3.0f;
			two[15 + 3 * v + 1] = pyramid[3 * v + 1];
			two[15 + 3 * v + 2] = pyramid[3 * v + 2];
		}
		pyramid_faces(0x3f, faces);
		pyramid_faces(0x00, faces + 18);
		for (int k = 18; k < 36; k++) faces[k] += 5;
		weft_mesh_collider* mesh = NULL;
		CHECK(weft_mesh_collider_create(&allocator, two, 10, faces, 12, margin, &mesh) == WEFT_OK);
		if (mesh != NULL) {
			CHECK(mesh->closed);
			for (int32_t t = 0; t < mesh->triangle_count; t++) {
				const float* n = mesh->face_normals + 4 * t;
				const float* a = mesh->vertices + 4 * mesh->indices[3 * t];
				float c[3] = {a[0] < 1.5f ? 0.0f : 3.0f, 0.3f, 0.0f};
				CHECK(n[0] * (a[0] - c[0]) + n[1] * (a[1] - c[1]) + n[2] * (a[2] - c[2]) > 0.0f);
			}
			weft_mesh_collider_destroy(mesh, &allocator);
		}
	}
}

TEST(open_mesh_two_sided) {
	weft_allocator allocator = weft_resolve_allocator((weft_allocator){0});
	const float margin = 0.005f;
	// A quad of two triangles wound against each other: made consistent (the first triangle's
	// winding), still open, and two-sided: crossing from either side is pushed back.
	float quad[12] = {-1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1};
	uint32_t quad_indices[6] = {0, 2, 1, 0, 2, 3};
	weft_mesh_collider* shell = NULL;
	CHECK(weft_mesh_collider_create(&allocator, quad, 4, quad_indices, 2, margin, &shell) == WEFT_OK);
	if (shell == NULL) return;
	CHECK(!shell->closed);
	CHECK(shell->face_normals[1] * shell->face_normals[4 + 1] > 0.0f); // both normals along the same side
	// The shared edge's pseudo-normal is a unit normal (not the zero sum of opposite faces).
	for (int32_t k = 0; k < 6; k++) {
		const float* e = shell->edge_normals + 4 * k;
		CHECK_NEAR(e[0] * e[0] + e[1] * e[1] + e[2] * e[2], 1.0, 1e-5);
	}
	float p[4] = {0.1f, 0.02f, 0.1f, 1.0f}, p0[4] = {0.1f, -0.03f, 0.1f, 1.0f};
	weft_mesh_collide_particles(shell, p, p0, 1, margin, 0.0f);
	CHECK_NEAR(p[1], -margin, 1e-5);
	float above[4] = {-0.1f, -0.02f, -0.1f, 1.0f}, above0[4] = {-0.1f, 0.03f, -0.1f, 1.0f};
	weft_mesh_collide_particles(shell, above, above0, 1, margin, 0.0f);
	CHECK_NEAR(above[1], margin, 1e-5);
	weft_mesh_collider_destroy(shell, &allocator);
}

int main(int argc, char** argv) {
	TEST_INIT(argc, argv);
	RUN_TEST(pyramid_any_winding);
	RUN_TEST(mixed_winding_made_consistent);
	RUN_TEST(open_mesh_two_sided);
	return TEST_SUMMARY();
}
