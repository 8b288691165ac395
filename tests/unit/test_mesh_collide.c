// Mesh collider internals: pseudo-normal inside/outside and the grid query against brute force,
// push-out to the margin, friction, and no tunnelling of a fast particle through a thin wall.
#include <stdlib.h>
#include <string.h>

#include "mesh.h"
#include "mesh_oracle.h"
#include "test.h"

static uint64_t rng_state = 0x2545f4914f6cdd1dull;
static float uniform(float lo, float hi) {
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return lo + (hi - lo) * (float)((double)(rng_state >> 11) / (double)(1ull << 53));
}

// Box [lo, hi] as 12 triangles, counter-clockwise seen from outside; each face split into n × n quads
// (n ≥ 1) so that the grid has several triangles per cell and the mesh has shared edges and vertices.
typedef struct box_mesh {
	float positions[3 * 6 * 9 * 9];
	uint32_t indices[3 * 6 * 2 * 8 * 8];
	int32_t vertex_count, triangle_count;
} box_mesh;

static void make_box(box_mesh* box, const float lo[3], const float hi[3], int n) {
	// Unwelded per face (seams are open) unless welded below: weld by exact position.
	box->vertex_count = 0;
	box->triangle_count = 0;
	for (int axis = 0; axis < 3; axis++) {
		for (int side = 0; side < 2; side++) {
			int u = (axis + 1) % 3, v = (axis + 2) % 3;
			uint32_t base[9][9];
			for (int j = 0; j <= n; j++) {
				for (int i = 0; i <= n; i++) {
					float p[3];
					p[axis] = side ? hi[axis] : lo[axis];
					p[u] = lo[u] + (hi[u] - lo[u]) * (float)i / (float)n;
					p[v] = lo[v] + (hi[v] - lo[v]) * (float)j / (float)n;
					int32_t found = -1;
					for (int32_t k = 0; k < box->vertex_count; k++) {
						if (memcmp(box->positions + 3 * k, p, sizeof p) == 0) found = k;
					}
					if (found < 0) {
						memcpy(box->positions + 3 * box->vertex_count, p, sizeof p);
						found = box->vertex_count++;
					}
					base[j][i] = (uint32_t)found;
				}
			}
			for (int j = 0; j < n; j++) {
				for (int i = 0; i < n; i++) {
					uint32_t a = base[j][i], b = base[j][i + 1], c = base[j + 1][i + 1], d = base[j + 1][i];
					// u × v = +axis, so (a, b, c) is counter-clockwise seen from +axis.
					uint32_t quad[6] = {a, b, c, a, c, d};
					if (!side) {
						quad[1] = c;
						quad[2] = b;
						quad[4] = d;
						quad[5] = c;
					}
					memcpy(box->indices + 3 * box->triangle_count, quad, sizeof quad);
					box->triangle_count += 2;
				}
			}
		}
	}
}

static float brute_distance(const weft_mesh_collider* mesh, const float p[3]) {
	return oracle_mesh_distance(mesh->vertices, mesh->indices, mesh->triangle_count, p);
}

// The 0.6 × 0.4 × 0.4 m box (8 × 8 quads a face) most cases collide with, margin 5 mm.
static const float box_lo[3] = {-0.3f, 0.0f, -0.2f}, box_hi[3] = {0.3f, 0.4f, 0.2f};
static weft_mesh_collider* box_collider(const weft_allocator* allocator, box_mesh* box) {
	make_box(box, box_lo, box_hi, 8);
	weft_mesh_collider* mesh = NULL;
	CHECK(weft_mesh_collider_create(allocator, box->positions, box->vertex_count, box->indices, box->triangle_count,
	                                0.005f, &mesh) == WEFT_OK);
	return mesh;
}

// A case's box collider with what it needs to be freed.
typedef struct box_case {
	weft_allocator allocator;
	box_mesh* box;
	weft_mesh_collider* mesh;
} box_case;

static box_case box_case_begin(void) {
	box_case c = {weft_resolve_allocator((weft_allocator){0}), malloc(sizeof(box_mesh)), NULL};
	c.mesh = box_collider(&c.allocator, c.box);
	return c;
}

static void box_case_end(box_case* c) {
	weft_mesh_collider_destroy(c->mesh, &c->allocator);
	free(c->box);
}

TEST(box_collider_and_grid_query) {
	weft_allocator allocator = weft_resolve_allocator((weft_allocator){0});
	box_mesh* box = malloc(sizeof *box);
	const float lo[3] = {-0.3f, 0.0f, -0.2f}, hi[3] = {0.3f, 0.4f, 0.2f};
	make_box(box, lo, hi, 8);
	weft_mesh_collider* mesh = NULL;
	CHECK(weft_mesh_collider_create(&allocator, box->positions, box->vertex_count, box->indices, box->triangle_count,
	                                0.005f, &mesh) == WEFT_OK);
	CHECK(mesh != NULL && mesh->closed);
	CHECK(mesh->triangle_count == 6 * 2 * 64);
	CHECK(mesh->sphere_count >= 2 && mesh->sphere_count <= 8);
	CHECK(mesh->grid.cell_start[mesh->grid.cell_count] == (uint32_t)mesh->grid.entry_count);

	// Signed distance through the grid = brute force within reach; sign = analytic inside test.
	int checked = 0, wrong_distance = 0, wrong_sign = 0, outside_spheres = 0;
	float reach = mesh->grid.cell_size;
	for (int trial = 0; trial < 20000; trial++) {
		float p[3];
		for (int i = 0; i < 3; i++) p[i] = uniform(lo[i] - 2 * reach, hi[i] + 2 * reach);
		float brute = brute_distance(mesh, p);
		float d;
		bool found = weft_mesh_signed_distance(mesh, p, &d);
		if (brute < 0.999f * reach) {
			checked++;
			bool inside = p[0] > lo[0] && p[0] < hi[0] && p[1] > lo[1] && p[1] < hi[1] && p[2] > lo[2] && p[2] < hi[2];
			if (!found || fabsf(fabsf(d) - brute) > 1e-5f) wrong_distance++;
			if (found && (d < 0) != inside && brute > 1e-5f) wrong_sign++;
			// Broadphase: a point within reach lies in some sphere.
			bool in_sphere = false;
			for (int32_t s = 0; s < mesh->sphere_count; s++) {
				const float* c = mesh->spheres + 4 * s;
				float dx = p[0] - c[0], dy = p[1] - c[1], dz = p[2] - c[2];
				in_sphere |= dx * dx + dy * dy + dz * dz <= c[3] * c[3];
			}
			outside_spheres += !in_sphere;
		}
	}
	printf("grid query: %d points within reach %.4f m, %d wrong distance, %d wrong sign, %d missed by spheres\n",
	       checked, reach, wrong_distance, wrong_sign, outside_spheres);
	CHECK(checked > 2000);
	CHECK(wrong_distance == 0);
	CHECK(wrong_sign == 0);
	CHECK(outside_spheres == 0);
	weft_mesh_collider_destroy(mesh, &allocator);
	free(box);
}

TEST(push_out) {
	box_case c = box_case_begin();
	weft_mesh_collider* mesh = c.mesh;
	// Push-out: a particle just inside the top face ends at the margin above it; one far away and
	// a pinned one are untouched.
	const float margin = 0.005f;
	float positions[12] = {0.01f, 0.39f, 0.02f, 1.0f, 2.0f, 2.0f, 2.0f, 1.0f, 0.0f, 0.39f, 0.0f, 0.0f};
	float previous[12];
	memcpy(previous, positions, sizeof previous);
	previous[1] = 0.41f; // came from above
	CHECK(weft_mesh_collide_particles(mesh, positions, previous, 3, margin, 0.0f) == 1);
	CHECK_NEAR(positions[1], 0.4 + margin, 1e-5);
	CHECK_NEAR(positions[0], 0.01, 1e-6);
	CHECK(positions[4] == 2.0f && positions[9] == 0.39f);
	box_case_end(&c);
}

TEST(deep_inside) {
	box_case c = box_case_begin();
	weft_mesh_collider* mesh = c.mesh;
	const float margin = 0.005f;
	// Deep inside (no crossing this substep, e.g. released there after a grab), farther from the
	// surface than the grid's reach: out through the nearest face (the top, 0.12 m away).
	float deep[4] = {0.0f, 0.28f, 0.0f, 1.0f}, deep_previous[4] = {0.0f, 0.28f, 0.0f, 1.0f};
	CHECK(mesh->grid.cell_size < 0.12f);
	weft_mesh_collide_particles(mesh, deep, deep_previous, 1, margin, 0.0f);
	CHECK_NEAR(deep[1], 0.4 + margin, 1e-5);
	box_case_end(&c);
}

TEST(friction) {
	box_case c = box_case_begin();
	weft_mesh_collider* mesh = c.mesh;
	const float margin = 0.005f;
	// Friction: sliding into the top face, friction 1 removes the tangential motion when it is smaller
	// than the push-out; friction 0 keeps it.
	for (int with_friction = 0; with_friction < 2; with_friction++) {
		float p[4] = {0.01f, 0.39f, 0.0f, 1.0f}, p0[4] = {0.0f, 0.4f + margin, 0.0f, 1.0f};
		weft_mesh_collide_particles(mesh, p, p0, 1, margin, with_friction ? 1.0f : 0.0f);
		CHECK_NEAR(p[1], 0.4 + margin, 1e-5);
		CHECK_NEAR(p[0], with_friction ? 0.0 : 0.01, 1e-6);
	}
	box_case_end(&c);
}

TEST(no_tunnelling) {
	weft_allocator allocator = weft_resolve_allocator((weft_allocator){0});
	box_mesh* box = malloc(sizeof *box);
	const float margin = 0.005f;
	// No tunnelling: a 2 mm wall; a particle at 30 m/s crosses it within one substep (5 cm).
	weft_mesh_collider* wall = NULL;
	const float wall_lo[3] = {-0.5f, 0.499f, -0.5f}, wall_hi[3] = {0.5f, 0.501f, 0.5f};
	make_box(box, wall_lo, wall_hi, 1);
	CHECK(weft_mesh_collider_create(&allocator, box->positions, box->vertex_count, box->indices, box->triangle_count,
	                                margin, &wall) == WEFT_OK);
	CHECK(wall->closed);
	int tunnelled = 0;
	for (int trial = 0; trial < 200; trial++) {
		float x = uniform(-0.45f, 0.45f), z = uniform(-0.45f, 0.45f);
		float p[4] = {x, uniform(0.51f, 0.6f), z, 1.0f};
		float velocity = -30.0f, dt = 1.0f / 600.0f;
		for (int step = 0; step < 40; step++) {
			float p0[4];
			memcpy(p0, p, sizeof p0);
			p[1] += velocity * dt;
			p[0] += uniform(-0.01f, 0.01f);
			weft_mesh_collide_particles(wall, p, p0, 1, margin, 0.4f);
		}
		tunnelled += p[1] < 0.501f;
	}
	CHECK(tunnelled == 0);
	// The same path without the continuous test would end below the wall: one substep from just
	// above it lands 5 cm further down, beyond the grid's reach of the bottom face.
	{
		float p[4] = {0.0f, 0.52f, 0.0f, 1.0f};
		float p0[4] = {0.0f, 0.52f, 0.0f, 1.0f};
		p[1] -= 30.0f / 600.0f;
		float d;
		bool near = weft_mesh_signed_distance(wall, p, &d);
		CHECK(!near || d > 0.0f); // statically the particle looks outside, below the wall
		weft_mesh_collide_particles(wall, p, p0, 1, margin, 0.0f);
		CHECK_NEAR(p[1], 0.501 + margin, 1e-5);
	}
	weft_mesh_collider_destroy(wall, &allocator);
	free(box);
}

TEST(cloth_through_wall) {
	box_mesh* box = malloc(sizeof *box);
	const float wall_lo[3] = {-0.5f, 0.499f, -0.5f}, wall_hi[3] = {0.5f, 0.501f, 0.5f};
	make_box(box, wall_lo, wall_hi, 1);
	// Through the whole step: a small cloth shot at a 2 mm wall at 200 m/s (no speed clamp, 33 cm per
	// substep) stays on its side; without the mesh collider it goes through.
	for (int with_wall = 1; with_wall >= 0; with_wall--) {
		weft_world_def def = weft_default_world_def();
		def.max_speed = 0.0f;
		def.ground_enabled = false;
		def.damping = 0.0f;
		def.drag = 0.0f;
		weft_cloth_def cloth = weft_default_cloth_def();
		cloth.width = cloth.height = 4;
		cloth.size_u = cloth.size_v = 0.2f;
		cloth.origin = (weft_vec3){-0.1f, 0.6f, -0.1f};
		cloth.axis_v = (weft_vec3){0.0f, 0.0f, 1.0f};
		cloth.pin = WEFT_PIN_NONE;
		weft_world* world = NULL;
		CHECK(weft_world_create(&def, &cloth, &world) == WEFT_OK);
		if (with_wall) {
			CHECK(weft_world_set_mesh_collider(world, box->positions, box->vertex_count, box->indices,
			                                   box->triangle_count, false) == WEFT_OK);
		}
		float* velocities = weft_world_velocities(world);
		for (int32_t i = 0; i < weft_world_particle_count(world); i++) velocities[4 * i + 1] = -200.0f;
		for (int frame = 0; frame < 10; frame++) weft_world_step(world, 1.0f / 60.0f);
		float lowest = INFINITY;
		const float* x = weft_world_positions(world);
		for (int32_t i = 0; i < weft_world_particle_count(world); i++) lowest = fminf(lowest, x[4 * i + 1]);
		printf("cloth at 200 m/s %s the wall: lowest particle at y = %.3f\n", with_wall ? "with" : "without",
		       (double)lowest);
		CHECK(with_wall ? lowest >= 0.501f : lowest < 0.0f);
		weft_world_destroy(world);
	}
	free(box);
}

TEST(open_shell) {
	weft_allocator allocator = weft_resolve_allocator((weft_allocator){0});
	const float margin = 0.005f;
	// An open mesh (one quad) is a two-sided shell: crossing from below is pushed back below.
	{
		float quad[12] = {-1, 0, -1, 1, 0, -1, 1, 0, 1, -1, 0, 1};
		uint32_t quad_indices[6] = {0, 2, 1, 0, 3, 2};
		weft_mesh_collider* shell = NULL;
		CHECK(weft_mesh_collider_create(&allocator, quad, 4, quad_indices, 2, margin, &shell) == WEFT_OK);
		CHECK(!shell->closed);
		float p[4] = {0.1f, 0.02f, 0.1f, 1.0f}, p0[4] = {0.1f, -0.03f, 0.1f, 1.0f};
		weft_mesh_collide_particles(shell, p, p0, 1, margin, 0.0f);
		CHECK_NEAR(p[1], -margin, 1e-5);
		float above[4] = {0.1f, -0.02f, 0.1f, 1.0f}, above0[4] = {0.1f, 0.03f, 0.1f, 1.0f};
		weft_mesh_collide_particles(shell, above, above0, 1, margin, 0.0f);
		CHECK_NEAR(above[1], margin, 1e-5);
		weft_mesh_collider_destroy(shell, &allocator);
	}
}

TEST(degenerate_refused) {
	weft_allocator allocator = weft_resolve_allocator((weft_allocator){0});
	const float margin = 0.005f;
	// Degenerate input: every triangle without area is refused.
	{
		float line[9] = {0, 0, 0, 1, 0, 0, 2, 0, 0};
		uint32_t tri[3] = {0, 1, 2};
		weft_mesh_collider* none = NULL;
		CHECK(weft_mesh_collider_create(&allocator, line, 3, tri, 1, margin, &none) == WEFT_ERROR_INVALID_ARGUMENT);
		CHECK(none == NULL);
	}
}

int main(int argc, char** argv) {
	TEST_INIT(argc, argv);
	RUN_TEST(box_collider_and_grid_query);
	RUN_TEST(push_out);
	RUN_TEST(deep_inside);
	RUN_TEST(friction);
	RUN_TEST(no_tunnelling);
	RUN_TEST(cloth_through_wall);
	RUN_TEST(open_shell);
	RUN_TEST(degenerate_refused);
	return TEST_SUMMARY();
}
