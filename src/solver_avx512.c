// The 16-lane solve of solver_kernels.h: AVX-512 (F and DQ, no FMA) on x86-64, where this file alone
// is compiled with -mavx512f -mavx512dq (CMakeLists.txt) and runs only where the CPU has both
// (weft_sixteen_lanes_available), so one binary runs on any x86-64. Bit-identical to the scalar
// path like the 4- and 8-lane ones. The interleaved and paired groups split 32 particles with
// shuffles within 128-bit quarters, which leaves the constraints in the lane order simd16.h's
// vload_lanes and vstore_lanes follow.
#include "solver.h"
#include "simd16.h"

#if defined(WEFT_SIMD16)

#define LANES 16
#define KERNEL(name) name##_16

#include "solver_kernels.h"

bool weft_sixteen_lanes_available(void) {
	static int available = -1;
	if (available < 0) {
		__builtin_cpu_init();
		available = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") ? 1 : 0;
	}
	return available == 1;
}

#else

bool weft_sixteen_lanes_available(void) { return false; }
#if defined(__SSE2__) || defined(__wasm_simd128__)
// Never chosen (weft_sixteen_lanes_available is false); here so that builds without AVX-512 link.
void weft_solve_batch_rows_16(weft_world* world, int32_t colour, int32_t begin, int32_t end, float inverse_h2,
                              bool first) {
	weft_solve_batch_rows_8(world, colour, begin, end, inverse_h2, first);
}
void weft_tethers_rows_16(weft_world* world, int32_t begin, int32_t end) { weft_tethers_rows_8(world, begin, end); }
#endif

#endif
