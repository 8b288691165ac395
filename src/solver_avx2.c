// The 8-lane solve of solver_kernels.h: AVX2 (no FMA) on x86-64, where this file alone is compiled
// with -mavx2 (CMakeLists.txt) and runs only where the CPU has AVX2 (weft_eight_lanes_available),
// so one binary runs on any x86-64; in wasm two SIMD128 fours side by side (simd8.h), which the
// page's solve takes (6-8% faster than one four in Node at `hang` 128²: the two fours' work
// interleaved). Bit-identical to the scalar path like the 4-lane one (solver_simd.c).
//
// The interleaved and paired groups split 16 particles with in-lane shuffles, which leaves the
// constraints in lane order 0 1 4 5 2 3 6 7: their rest lengths, compliances and λ are loaded and
// stored through the same permutation (vload_lanes / vstore_lanes), so each lane still works on one
// constraint's own values.
#include "solver.h"
#include "simd8.h"

#if defined(WEFT_SIMD8)

#define LANES 8
#define KERNEL(name) name##_8

#include "solver_kernels.h"

bool weft_eight_lanes_available(void) {
#if defined(__wasm_simd128__)
	return true;
#else
	static int available = -1;
	if (available < 0) {
		__builtin_cpu_init();
		available = __builtin_cpu_supports("avx2") ? 1 : 0;
	}
	return available == 1;
#endif
}

#else

bool weft_eight_lanes_available(void) { return false; }
#if defined(__SSE2__)
// Never chosen (weft_eight_lanes_available is false); here so that the 4-lane build links.
void weft_solve_batch_rows_8(weft_world* world, int32_t colour, int32_t begin, int32_t end, float inverse_h2,
                             bool first) {
	(void)colour;
	weft_solve_batch_rows_4(world, colour, begin, end, inverse_h2, first);
}
void weft_tethers_rows_8(weft_world* world, int32_t begin, int32_t end) { weft_tethers_rows_4(world, begin, end); }
#endif

#endif
