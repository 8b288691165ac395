// The bunny under the stability sweep's drag (bench/sweep.c): a particle in the middle of a cloth
// draped over the bunny is grabbed, carried 1 m in +z over 5 frames and back over 5, and let go.
// The drag pulls the cloth across the head and the ears slip between particles: an ear then passes
// between the two ends of an edge, each end is pushed back to its own side of it, and the frame-end
// strain sweeps shortened the edge through the ear only for the push-out to put it back (32² at 10
// and 100 substeps: 103% and 155% stretch, held after the release). Here, at those settings: every
// frame after the first second ends below 100% stretch, finite, with no particle inside the bunny.
#include <math.h>

#include "mesh.h"
#include "vec3.h"
#include "sweep_drag.h"
#include "test.h"
#include "world_internal.h"

typedef struct drag_outcome {
	bool finite;
	float worst_stretch;                    // over the frames after the first second
	float deepest;                          // m, the deepest a particle ended a frame inside the bunny
	int32_t fewest_substeps, most_substeps; // a frame took (weft_world_frame_substeps)
	int32_t most_wanted;                    // a frame's motion asked for (weft_world_frame_substeps_wanted)
	bool took_what_it_wanted;               // every frame: the substeps, or what it wanted up to max_substeps
} drag_outcome;

// max_substeps < 0: the default's.
static drag_outcome drag_with(int32_t grid, int32_t substeps, float compliance, int32_t max_substeps) {
	drag_outcome out = {true, 0.0f, 0.0f, INT32_MAX, 0, 0, true};
	weft_scene_def scene;
	CHECK(weft_scene("bunny", grid, &scene) == WEFT_OK);
	scene.world.substeps = substeps;
	if (max_substeps >= 0) scene.world.max_substeps = max_substeps;
	scene.world.iterations = 1;
	scene.world.damping = 0.0f;
	scene.cloth.stretch_compliance = scene.cloth.shear_compliance = compliance;
	weft_world* world = NULL;
	CHECK(weft_world_create_from_scene(&scene, &world) == WEFT_OK);
	if (world == NULL) return out;
	const int32_t n = weft_world_particle_count(world), dragged = sweep_drag_particle(n, grid);
	weft_vec3 start = {0.0f, 0.0f, 0.0f};
	for (int32_t f = 0; f < 120 && out.finite; ++f) {
		CHECK(sweep_drag_frame(world, dragged, f, &start));
		out.finite = weft_world_step(world, scene.frame_dt) == WEFT_OK && weft_world_is_finite(world);
		const int32_t took = weft_world_frame_substeps(world), wanted = weft_world_frame_substeps_wanted(world);
		out.fewest_substeps = took < out.fewest_substeps ? took : out.fewest_substeps;
		out.most_substeps = took > out.most_substeps ? took : out.most_substeps;
		out.most_wanted = wanted > out.most_wanted ? wanted : out.most_wanted;
		const int32_t most = scene.world.max_substeps;
		out.took_what_it_wanted &= wanted >= substeps && took == (most <= substeps ? substeps
		                                                          : wanted < most  ? wanted
		                                                                           : most);
		if (f >= 60) {
			const float stretch = weft_world_max_stretch(world);
			out.worst_stretch = !(stretch <= out.worst_stretch) ? stretch : out.worst_stretch;
			const float* x = weft_world_positions(world);
			for (int32_t p = 0; p < n; ++p) {
				float d;
				if (weft_mesh_signed_distance(world->mesh, &x[4 * p], &d) && -d > out.deepest) out.deepest = -d;
			}
		}
	}
	weft_world_destroy(world);
	return out;
}

static drag_outcome drag(int32_t grid, int32_t substeps, float compliance) {
	return drag_with(grid, substeps, compliance, -1);
}

TEST(drag_over_the_ears) {
	const int32_t substeps[] = {10, 100};
	const float compliances[] = {0.0f, 1e-3f};
	for (size_t k = 0; k < sizeof substeps / sizeof substeps[0]; ++k) {
		for (size_t c = 0; c < sizeof compliances / sizeof compliances[0]; ++c) {
			const drag_outcome r = drag(32, substeps[k], compliances[c]);
			printf("bunny 32², %d substeps, compliance %g: max stretch after 1 s %.3f, deepest %.5f m\n",
			       (int)substeps[k], (double)compliances[c], (double)r.worst_stretch, (double)r.deepest);
			CHECK(r.finite);
			CHECK(r.worst_stretch < 1.0f);
			CHECK(r.deepest <= 0.001f);
		}
	}
}

// A finer cloth (96², 1.7 cm between particles) at 1 and 10 substeps: the ears' rims are thinner
// than the spacing, and where the cloth slides across them 5 mm a substep (the hand's 3 m/s at 10
// substeps) or lands 5 cm a frame (1 substep), a rim came between two particles and the edge
// through it stretched: 160% and 450% (the stability sweep's 32 failing runs). Frames where the
// cloth near the mesh moves fast now take more substeps (max_substeps: 32 by default), and the
// same drag stays below 100%. Kept to the world's substeps (max_substeps 0), it still fails: the
// test sees the difference.
TEST(fine_cloth_takes_more_substeps) {
	const int32_t substeps[] = {1, 10};
	for (size_t k = 0; k < sizeof substeps / sizeof substeps[0]; ++k) {
		const drag_outcome r = drag_with(96, substeps[k], 0.0f, -1);
		printf("bunny 96², %d substeps (up to 32 a frame): max stretch after 1 s %.3f, deepest %.5f m, frames "
		       "of %d to %d substeps\n",
		       (int)substeps[k], (double)r.worst_stretch, (double)r.deepest, (int)r.fewest_substeps,
		       (int)r.most_substeps);
		CHECK(r.finite);
		CHECK(r.worst_stretch < 1.0f);
		CHECK(r.deepest <= 0.001f);
		CHECK(r.fewest_substeps < r.most_substeps);
		CHECK(r.most_substeps > substeps[k] && r.most_substeps <= 32);
		CHECK(r.took_what_it_wanted);
	}
	// Kept to its substeps, the world still says how many its frames wanted (the page warns then).
	const drag_outcome fixed = drag_with(96, 10, 0.0f, 0);
	printf("bunny 96², 10 substeps in every frame: max stretch after 1 s %.3f, frames wanted up to %d substeps\n",
	       (double)fixed.worst_stretch, (int)fixed.most_wanted);
	CHECK(fixed.fewest_substeps == 10 && fixed.most_substeps == 10);
	CHECK(fixed.worst_stretch > 1.0f);
	CHECK(fixed.took_what_it_wanted && fixed.most_wanted > 10);
}

// The sweep's drag on `hang` at grid² and `substeps`: the substeps each of 80 frames took; false if
// the world could not be made or a step failed.
static bool hang_drag_substeps(int32_t grid, int32_t substeps, int32_t taken[80]) {
	weft_scene_def scene;
	CHECK(weft_scene("hang", grid, &scene) == WEFT_OK);
	scene.world.substeps = substeps;
	weft_world* world = NULL;
	CHECK(weft_world_create_from_scene(&scene, &world) == WEFT_OK);
	if (world == NULL) return false;
	const int32_t dragged = sweep_drag_particle(weft_world_particle_count(world), grid);
	weft_vec3 start = {0.0f, 0.0f, 0.0f};
	bool stepped = true;
	int64_t sum = 0;
	for (int32_t f = 0; f < 80; ++f) {
		stepped = stepped && sweep_drag_frame(world, dragged, f, &start);
		stepped = stepped && weft_world_step(world, scene.frame_dt) == WEFT_OK;
		taken[f] = weft_world_frame_substeps(world);
		CHECK(weft_world_frame_substeps_wanted(world) == taken[f]); // below max_substeps: what it wanted
		sum += taken[f];
	}
	CHECK(weft_world_substeps_run(world) == sum);
	weft_world_destroy(world);
	return stepped;
}

// Without a mesh collider or a sphere, and with the hand within a spacing a substep, every frame
// takes the world's substeps, however fast the cloth moves (the same drag on `hang` 32² at 2
// substeps: the hand at 3 m/s moves 2.5 cm a substep, the spacing is 3.2 cm).
TEST(no_mesh_keeps_the_substeps) {
	int32_t taken[80];
	CHECK(hang_drag_substeps(32, 2, taken));
	for (int32_t f = 0; f < 80; ++f) CHECK(taken[f] == 2);
}

// A hand faster than a spacing a substep: the same drag on `hang` 128² at 1 substep (the hand up to
// 3 cm a frame, held within reach of the pins; the spacing 7.9 mm) takes 4 substeps in the frames
// the hand moves, 1 in the others.
TEST(fast_hand_takes_more_substeps) {
	int32_t taken[80], still = 0, moving = 0;
	CHECK(hang_drag_substeps(128, 1, taken));
	for (int32_t f = 0; f < 80; ++f) {
		if (f > 60 && f < 70) { // the hand on its way out and back
			moving = taken[f] > moving ? taken[f] : moving;
			CHECK(taken[f] > 1 && taken[f] <= weft_default_world_def().max_substeps);
		} else {
			still = taken[f] > still ? taken[f] : still;
		}
	}
	printf("hang 128², 1 substep, the drag: %d substeps a frame while the hand moves, at most %d otherwise\n",
	       (int)moving, (int)still);
	CHECK(still == 1);
}

// A hand driven down into the bunny (the page's drag of the cloth on the bunny's back towards the
// floor): the held particle meets the mesh as a particle's path would and slides over it
// (weft_world_hand_path). Held where the hand pointed, inside, it pulled a needle out of the cloth:
// `bunny` 32², particle 528 (on the back) taken 0.6 m straight down over 3 frames and held for 30,
// an edge stretched 341% at the worst, and 30% 60 frames after the release (64², particle 2080:
// 916% and 43%). Now: the held particle never inside, at most 12% (34%), and never faster than the
// hand (3 m/s) as it catches up: held back and let go in one substep, it went 11 and 15 m/s (42% and
// 57%; in the page, 0.34 m in one frame and the cloth thrashing).
static void hand_down_into_the_bunny(int32_t grid, int32_t particle, float* worst, float* deepest, float* fastest) {
	weft_world* world = NULL;
	CHECK(weft_world_create_scene("bunny", grid, &world) == WEFT_OK);
	if (world == NULL) return;
	for (int32_t f = 0; f < 120; ++f) CHECK(weft_world_step(world, 1.0f / 60.0f) == WEFT_OK);
	const float* x = weft_world_positions(world);
	const weft_vec3 start = {x[4 * particle], x[4 * particle + 1], x[4 * particle + 2]};
	CHECK(weft_world_grab(world, particle, start) == WEFT_OK);
	weft_vec3 was = start;
	for (int32_t f = 1; f <= 33; ++f) {
		const float down = 0.6f * (float)(f < 3 ? f : 3) / 3.0f;
		CHECK(weft_world_grab_move(world, (weft_vec3){start.x, start.y - down, start.z}) == WEFT_OK);
		CHECK(weft_world_step(world, 1.0f / 60.0f) == WEFT_OK);
		*worst = fmaxf(*worst, weft_world_max_stretch(world));
		float d;
		if (weft_mesh_signed_distance(world->mesh, &x[4 * particle], &d)) *deepest = fmaxf(*deepest, -d);
		const weft_vec3 held = {x[4 * particle], x[4 * particle + 1], x[4 * particle + 2]};
		*fastest = fmaxf(*fastest, weft_length(weft_sub(held, was)) * 60.0f);
		was = held;
	}
	weft_world_destroy(world);
}

TEST(hand_slides_over_the_bunny) {
	float worst32 = 0.0f, deepest32 = 0.0f, fastest32 = 0.0f, worst64 = 0.0f, deepest64 = 0.0f, fastest64 = 0.0f;
	hand_down_into_the_bunny(32, 528, &worst32, &deepest32, &fastest32);
	hand_down_into_the_bunny(64, 2080, &worst64, &deepest64, &fastest64);
	printf("a hand 0.6 m down into the bunny: 32², at worst %.3f stretch, the held particle %.4f m deep and at most "
	       "%.2f m/s; 64², %.3f, %.4f m, %.2f m/s\n",
	       (double)worst32, (double)deepest32, (double)fastest32, (double)worst64, (double)deepest64,
	       (double)fastest64);
	CHECK(deepest32 <= 0.0f && deepest64 <= 0.0f);
	CHECK(worst32 < 0.3f && worst64 < 0.5f);
	// The held particle never outruns the hand (grab_speed, 3 m/s), however far behind the mesh kept it.
	const float speed = weft_default_world_def().grab_speed * 1.001f;
	CHECK(fastest32 <= speed && fastest64 <= speed);
}

int main(int argc, char** argv) {
	TEST_INIT(argc, argv);
	RUN_TEST(drag_over_the_ears);
	RUN_TEST(fine_cloth_takes_more_substeps);
	RUN_TEST(no_mesh_keeps_the_substeps);
	RUN_TEST(fast_hand_takes_more_substeps);
	RUN_TEST(hand_slides_over_the_bunny);
	return TEST_SUMMARY();
}
