// Stiffness tables (issue "cloth that behaves like cloth"): how far the settled `hang` cloth
// stretches at the benchmark's 10 substeps × 1 iteration, with and without tethers, per grid; how
// low it sags across substep counts (the stiffness must not depend on them); and how far an
// unpinned cloth falls in 0.5 s against ½ g t² from 1 to 1000 substeps; and how the `hang` 64² cloth
// recovers from a violent drag at 10, 20 and 50 substeps (its stretch 3 s after the release against
// an undisturbed twin's). Prints one JSON document
// (bench/stiffness.sh writes it to bench/results/<machine>/stiffness.json).
//   weft_stiffness [--quick]
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stiffness_runs.h"

int main(int argc, char** argv) {
	const bool quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
	const int32_t grids[] = {32, 64, 128, 256};
	const int32_t grid_count = quick ? 2 : 4;
	printf("{\n  \"settle\": {\"damping\": %g, \"frames\": %d, \"substeps\": 10, \"iterations\": 1},\n",
	       STIFFNESS_SETTLE_DAMPING, STIFFNESS_SETTLE_FRAMES);
	printf("  \"stretch\": [\n");
	for (int32_t g = 0; g < grid_count; ++g) {
		const settled with = stiffness_settle_hang(grids[g], 10, true),
		              without = stiffness_settle_hang(grids[g], 10, false);
		printf("    {\"grid\": %d, \"max_stretch_tethers\": %.5f, \"max_stretch_no_tethers\": %.5f}%s\n", grids[g],
		       (double)with.max_stretch, (double)without.max_stretch, g + 1 < grid_count ? "," : "");
	}
	printf("  ],\n  \"sag\": [\n");
	const int32_t sag_substeps[] = {5, 10, 20, 40};
	const int32_t sag_grids[] = {64, 128};
	for (int32_t g = 0; g < 2; ++g) {
		float low = INFINITY, high = -INFINITY;
		printf("    {\"grid\": %d, \"lowest\": {", sag_grids[g]);
		for (int32_t k = 0; k < 4; ++k) {
			const settled s = stiffness_settle_hang(sag_grids[g], sag_substeps[k], true);
			low = fminf(low, s.lowest);
			high = fmaxf(high, s.lowest);
			printf("\"%d\": %.5f%s", sag_substeps[k], (double)s.lowest, k < 3 ? ", " : "");
		}
		printf("}, \"spread_m\": %.5f}%s\n", (double)(high - low), g == 0 ? "," : "");
	}
	printf("  ],\n  \"recovery\": [\n");
	const int32_t recovery_substeps[] = {10, 20, 50};
	for (int32_t k = 0; k < 3; ++k) {
		const recovery r = stiffness_drag_recovery(recovery_substeps[k]);
		printf("    {\"substeps\": %d, \"max_stretch_held\": %.5f, \"max_stretch_3s\": %.5f, \"undisturbed_3s\": %.5f, "
		       "\"ratio\": %.3f}%s\n",
		       recovery_substeps[k], (double)r.held, (double)r.dragged, (double)r.undisturbed,
		       (double)(r.dragged / r.undisturbed), k < 2 ? "," : "");
	}
	printf("  ],\n  \"free_fall\": [\n");
	const double exact = 0.5 * 9.81 * 0.5 * 0.5;
	const int32_t fall_substeps[] = {1, 2, 5, 10, 50, 100, 200, 500, 1000};
	for (int32_t k = 0; k < 9; ++k) {
		const double fallen = stiffness_free_fall(fall_substeps[k]);
		printf("    {\"substeps\": %d, \"fallen_m\": %.6f, \"error\": %.6f}%s\n", fall_substeps[k], fallen,
		       fabs(fallen - exact) / exact, k < 8 ? "," : "");
	}
	printf("  ]\n}\n");
	return 0;
}
