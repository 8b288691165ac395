// The `bunny` scene: the Stanford bunny is built in, fitted under the cloth, and after the cloth
// has settled on it no cloth vertex is more than 1 mm inside (judged by the generalized winding
// number, independent of the collider's own inside test). Without the mesh collider the same
// check fails, so the test measures the collision. Also: the collider arrays' invariants and
// input validation of weft_world_set_mesh_collider.
#include <stdlib.h>
#include <string.h>

#include "mesh.h"
#include "mesh_oracle.h"
#include "test.h"

// Winding number of the closed mesh around p (1 inside, 0 outside), in double.
static double winding_number(const weft_mesh_collider_view* mesh, const float* p) {
	double total = 0.0;
	for (int32_t t = 0; t < mesh->triangle_count; t++) {
		double a[3], b[3], c[3];
		for (int i = 0; i < 3; i++) {
			a[i] = (double)mesh->vertices[4 * mesh->indices[3 * t] + i] - p[i];
			b[i] = (double)mesh->vertices[4 * mesh->indices[3 * t + 1] + i] - p[i];
			c[i] = (double)mesh->vertices[4 * mesh->indices[3 * t + 2] + i] - p[i];
		}
		double la = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
		double lb = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
		double lc = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
		double det = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
		             a[2] * (b[0] * c[1] - b[1] * c[0]);
		double den = la * lb * lc + (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) * lc +
		             (b[0] * c[0] + b[1] * c[1] + b[2] * c[2]) * la + (c[0] * a[0] + c[1] * a[1] + c[2] * a[2]) * lb;
		total += 2.0 * atan2(det, den);
	}
	return total / (4.0 * 3.14159265358979323846);
}

static float brute_distance(const weft_mesh_collider_view* mesh, const float* p) {
	return oracle_mesh_distance(mesh->vertices, mesh->indices, mesh->triangle_count, p);
}

// Deepest penetration (m, ≥ 0) of the cloth vertices into the mesh.
static float deepest(weft_world* world, const weft_mesh_collider_view* mesh, int32_t* out_inside) {
	const float* x = weft_world_positions(world);
	float worst = 0.0f;
	*out_inside = 0;
	for (int32_t i = 0; i < weft_world_particle_count(world); i++) {
		if (winding_number(mesh, x + 4 * i) > 0.5) {
			(*out_inside)++;
			float d = brute_distance(mesh, x + 4 * i);
			worst = d > worst ? d : worst;
		}
	}
	return worst;
}

// The bunny scene at 32 × 32 and a view of its collider; NULL when the bunny was not built in.
static weft_world* bunny_world(weft_mesh_collider_view* mesh) {
	const float* positions;
	const uint32_t* indices;
	int32_t vertex_count, triangle_count;
	weft_bunny_mesh(&positions, &vertex_count, &indices, &triangle_count);
	if (vertex_count == 0) {
		return NULL;
	}
	weft_world* world = NULL;
	CHECK(weft_world_create_scene("bunny", 32, &world) == WEFT_OK);
	CHECK(weft_world_mesh_collider(world, mesh) == WEFT_OK);
	return world;
}

TEST(bunny_mesh_built) {
	const float* positions;
	const uint32_t* indices;
	int32_t vertex_count, triangle_count;
	weft_bunny_mesh(&positions, &vertex_count, &indices, &triangle_count);
	CHECK(vertex_count == 1839 && triangle_count == 3674);
}

TEST(collider_layout) {
	weft_mesh_collider_view mesh;
	weft_world* world = bunny_world(&mesh);
	if (world == NULL) return;
	CHECK(mesh.closed);
	CHECK(mesh.triangle_count > 3600 && mesh.vertex_count == 1839);
	CHECK(mesh.sphere_count >= 2 && mesh.sphere_count <= 8);

	// Layout invariants the GPU solver relies on.
	CHECK(mesh.cell_count == mesh.grid_dims[0] * mesh.grid_dims[1] * mesh.grid_dims[2]);
	CHECK(mesh.cell_start[0] == 0 && mesh.cell_start[mesh.cell_count] == (uint32_t)mesh.cell_entry_count);
	bool monotonic = true, in_range = true, covered = true;
	for (int32_t c = 0; c < mesh.cell_count; c++) monotonic &= mesh.cell_start[c] <= mesh.cell_start[c + 1];
	for (int32_t k = 0; k < mesh.cell_entry_count; k++)
		in_range &= mesh.cell_triangles[k] < (uint32_t)mesh.triangle_count;
	for (int32_t v = 0; v < mesh.vertex_count; v++) {
		bool inside_some = false;
		for (int32_t s = 0; s < mesh.sphere_count; s++) {
			const float* c = mesh.spheres + 4 * s;
			const float* p = mesh.vertices + 4 * v;
			float d2 = (p[0] - c[0]) * (p[0] - c[0]) + (p[1] - c[1]) * (p[1] - c[1]) + (p[2] - c[2]) * (p[2] - c[2]);
			inside_some |= d2 <= c[3] * c[3];
		}
		covered &= inside_some;
	}
	CHECK(monotonic && in_range && covered);
	weft_world_destroy(world);
}

TEST(random_paths_end_outside) {
	weft_mesh_collider_view mesh;
	weft_world* world = bunny_world(&mesh);
	if (world == NULL) return;
	// Random particle paths from outside (up to 6 cm per substep, faster than the speed clamp)
	// never end inside: the continuous test plus the push-out, on a mesh with thin ears and creases.
	{
		uint64_t state = 0x853c49e6748fea9bull;
		int paths = 0, ended_inside = 0, started_inside = 0;
		const weft_mesh_collider* collider = world->mesh;
		while (paths < 3000) {
			float p0[4], p[4];
			for (int i = 0; i < 3; i++) {
				state = state * 6364136223846793005ull + 1442695040888963407ull;
				float u = (float)(state >> 40) / 16777216.0f;
				p0[i] = -0.5f + u * 1.0f;
				state = state * 6364136223846793005ull + 1442695040888963407ull;
				float v = (float)(state >> 40) / 16777216.0f;
				p[i] = p0[i] + (v - 0.5f) * 0.12f;
			}
			p0[1] += 0.45f;
			p[1] += 0.45f;
			p0[3] = p[3] = 1.0f;
			if (winding_number(&mesh, p0) > 0.5) {
				started_inside++;
				continue;
			}
			paths++;
			weft_mesh_collide_particles(collider, p, p0, 1, 0.005f, 0.0f);
			ended_inside += winding_number(&mesh, p) > 0.5;
		}
		printf("random paths: %d from outside (%d started inside, skipped), %d ended inside\n", paths, started_inside,
		       ended_inside);
		CHECK(ended_inside == 0);
	}
	weft_world_destroy(world);
}

TEST(fitted_settled_edge_contacts) {
	weft_mesh_collider_view mesh;
	weft_world* world = bunny_world(&mesh);
	if (world == NULL) return;
	// Fitted: on the ground, under the cloth, 60% of the cloth's width.
	float mn[3] = {INFINITY, INFINITY, INFINITY}, mx[3] = {-INFINITY, -INFINITY, -INFINITY};
	for (int32_t v = 0; v < mesh.vertex_count; v++) {
		for (int i = 0; i < 3; i++) {
			mn[i] = fminf(mn[i], mesh.vertices[4 * v + i]);
			mx[i] = fmaxf(mx[i], mesh.vertices[4 * v + i]);
		}
	}
	weft_world_def def = weft_world_get_def(world);
	CHECK_NEAR(mn[1], def.ground_height, 1e-4);
	CHECK(mx[1] < weft_world_rest_positions(world)[1]);
	CHECK_NEAR(fmaxf(mx[0] - mn[0], mx[2] - mn[2]), 0.6 * 1.6, 1e-3);
	CHECK_NEAR(0.5f * (mn[0] + mx[0]), 0.0, 1e-4);

	// Settle for 3 s: no vertex deeper than 1 mm, and the cloth rests on the bunny (its highest
	// vertex is near the bunny's top, not on the ground).
	for (int frame = 0; frame < 180; frame++) {
		CHECK(weft_world_step(world, 1.0f / 60.0f) == WEFT_OK);
	}
	CHECK(weft_world_is_finite(world));
	int32_t inside;
	float depth = deepest(world, &mesh, &inside);
	float top = -INFINITY;
	for (int32_t i = 0; i < weft_world_particle_count(world); i++)
		top = fmaxf(top, weft_world_positions(world)[4 * i + 1]);
	printf("bunny scene: %d vertices inside, deepest %.5f m, cloth top %.3f m, bunny top %.3f m\n", (int)inside,
	       (double)depth, (double)top, (double)mx[1]);
	CHECK(depth <= 0.001f);
	CHECK(top > 0.8f * mx[1]);

	// The ears snag no cloth edge: with the edges lifted back over them (mesh_ridge_lifts.c) the
	// largest stretch is 2.4% (7.3% without the lift); with edge contacts too, 3.0% (2.8% without
	// the lift). Still no vertex inside.
	float stretch_particles = weft_world_max_stretch(world);
	weft_world_reset(world);
	CHECK(weft_world_set_mesh_edge_contacts(world, true) == WEFT_OK);
	for (int frame = 0; frame < 180; frame++) weft_world_step(world, 1.0f / 60.0f);
	float stretch_edges = weft_world_max_stretch(world);
	float depth_edges = deepest(world, &mesh, &inside);
	printf("max stretch: %.3f particles only, %.3f with edge contacts (deepest %.5f m)\n", (double)stretch_particles,
	       (double)stretch_edges, (double)depth_edges);
	CHECK(stretch_particles < 0.05f);
	CHECK(stretch_edges < 0.05f);
	CHECK(depth_edges <= 0.001f);
	CHECK(weft_world_set_mesh_edge_contacts(world, false) == WEFT_OK);

	// The same drop without the mesh collider ends inside the bunny: the check above can fail.
	weft_world_reset(world);
	weft_mesh_collider_view kept = mesh; // arrays stay valid while the collider lives
	weft_mesh_collider* saved = world->mesh;
	world->mesh = NULL;
	for (int frame = 0; frame < 20; frame++) weft_world_step(world, 1.0f / 60.0f); // mid-fall
	float depth_without = deepest(world, &kept, &inside);
	printf("without the collider: %d vertices inside, deepest %.3f m\n", (int)inside, (double)depth_without);
	CHECK(depth_without > 0.01f);
	world->mesh = saved;
	weft_world_destroy(world);
}

// The clearances (a particle that stays farther than the margin from the bunny skips its push-out;
// one that touches it tests only the triangle it touches while every other stays beyond the
// margin) change no bit: the drop and the drape give the same states with them as without, on 1
// and 2 threads, and both kinds are in use.
static uint64_t bunny_hash(bool clearance, int32_t threads, int32_t* out_skipping, int32_t* out_touching) {
	weft_scene_def scene;
	CHECK(weft_scene("bunny", 40, &scene) == WEFT_OK);
	scene.world.thread_count = threads;
	weft_world* world = NULL;
	CHECK(weft_world_create_from_scene(&scene, &world) == WEFT_OK);
	float* kept = world->mesh->clearance;
	if (!clearance) {
		world->mesh->clearance = NULL;
	}
	for (int frame = 0; frame < 180; frame++) weft_world_step(world, 1.0f / 60.0f);
	uint64_t hash = weft_world_state_hash(world);
	if (out_skipping != NULL) {
		*out_skipping = *out_touching = 0;
		for (int32_t p = 0; p < world->particle_count; p++) {
			const bool bound = kept[4 * p + 3] > world->def.collision_margin;
			const bool touching = world->mesh->clearance_triangle[p] != UINT32_MAX;
			*out_skipping += bound && !touching;
			*out_touching += bound && touching;
		}
	}
	world->mesh->clearance = kept;
	weft_world_destroy(world);
	return hash;
}

TEST(clearance_changes_nothing) {
	int32_t skipping = 0, touching = 0;
	const uint64_t with = bunny_hash(true, 1, &skipping, &touching);
	printf("clearance: of 1600 particles at the end, %d clear of the bunny, %d touching one triangle\n", (int)skipping,
	       (int)touching);
	CHECK(skipping > 100);
	CHECK(touching > 10);
	CHECK(bunny_hash(false, 1, NULL, NULL) == with);
#if !defined(__wasm__)
	CHECK(bunny_hash(true, 2, NULL, NULL) == with);
#endif
}

// The scene as a user gets it (64², the page's grid, its own substeps) drapes the bunny without
// the ears piercing the cloth: after the landing no edge stays stretched by more than 30% (at 10
// substeps an ear's tip passes between four particles: the same frames reach 176%).
TEST(scene_drapes_without_piercing) {
	weft_world* world = NULL;
	CHECK(weft_world_create_scene("bunny", 64, &world) == WEFT_OK);
	if (world == NULL) return;
	float worst = 0.0f;
	for (int frame = 0; frame < 150; frame++) {
		CHECK(weft_world_step(world, 1.0f / 60.0f) == WEFT_OK);
		const float stretch = weft_world_max_stretch(world);
		if (frame >= 60 && !(stretch <= worst)) worst = stretch;
	}
	printf("bunny 64², %d substeps: worst stretch over frames 60-150 %.3f\n", (int)weft_world_get_def(world).substeps,
	       (double)worst);
	CHECK(worst < 0.3f);
	weft_world_destroy(world);
}

TEST(validation_keeps_collider) {
	weft_mesh_collider_view mesh;
	weft_world* world = bunny_world(&mesh);
	if (world == NULL) return;
	weft_mesh_collider_view kept = mesh;
	// Validation: nothing changes on bad input.
	uint32_t bad_indices[3] = {0, 1, 5};
	float tri[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
	float nan_tri[9] = {0, 0, 0, 1, NAN, 0, 0, 1, 0};
	uint32_t good_indices[3] = {0, 1, 2};
	CHECK(weft_world_set_mesh_collider(world, tri, 3, bad_indices, 1, false) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_world_set_mesh_collider(world, nan_tri, 3, good_indices, 1, false) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_world_set_mesh_collider(world, NULL, 3, good_indices, 1, false) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_world_set_mesh_collider(world, tri, 2, good_indices, 1, false) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_world_set_mesh_collider(NULL, tri, 3, good_indices, 1, false) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_world_set_builtin_mesh_collider(world, "teapot") == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_world_mesh_collider(world, &mesh) == WEFT_OK && mesh.triangle_count == kept.triangle_count);
	weft_world_destroy(world);
}

TEST(user_obj_replaces) {
	weft_mesh_collider_view mesh;
	weft_world* world = bunny_world(&mesh);
	if (world == NULL) return;
	// A user OBJ replaces it (fitted), and removing it leaves none.
	weft_mesh_data data;
	CHECK(weft_obj_load(WEFT_SOURCE_DIR "/tests/data/tetrahedron.obj", NULL, &data) == WEFT_OK);
	CHECK(weft_world_set_mesh_collider(world, data.positions, data.vertex_count, data.indices, data.triangle_count,
	                                   true) == WEFT_OK);
	weft_mesh_data_free(&data);
	CHECK(weft_world_mesh_collider(world, &mesh) == WEFT_OK && mesh.triangle_count == 4 && mesh.closed);
	weft_world_remove_mesh_collider(world);
	CHECK(weft_world_mesh_collider(world, &mesh) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_world_set_mesh_edge_contacts(world, true) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(strstr(weft_last_error(), "the world has no mesh collider") != NULL);
	// No world at all says so (not "no mesh collider").
	CHECK(weft_world_set_mesh_edge_contacts(NULL, true) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(strstr(weft_last_error(), "world is NULL") != NULL);
	weft_world_destroy(world);
}

int main(int argc, char** argv) {
	TEST_INIT(argc, argv);
	RUN_TEST(bunny_mesh_built);
	RUN_TEST(collider_layout);
	RUN_TEST(random_paths_end_outside);
	RUN_TEST(fitted_settled_edge_contacts);
	RUN_TEST(clearance_changes_nothing);
	RUN_TEST(scene_drapes_without_piercing);
	RUN_TEST(validation_keeps_collider);
	RUN_TEST(user_obj_replaces);
	return TEST_SUMMARY();
}
