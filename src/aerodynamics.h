// Private: drag and lift on the cloth's triangles (aerodynamics.c).
#ifndef WEFT_AERODYNAMICS_H
#define WEFT_AERODYNAMICS_H

#include "world_internal.h"

// Allocates the per-triangle forces (when air is first on: creation or set_def; never in the step).
weft_result weft_aero_prepare(weft_world* world);
// Air acts: air_density > 0 and a drag or lift coefficient > 0.
bool weft_aero_active(const weft_world_def* def);
// The wind at simulated time `time` (s): def->wind plus the seeded gusts.
weft_vec3 weft_aero_wind(const weft_world_def* def, double time);
// Triangles [begin, end): a third of each one's drag + lift (N), per corner.
void weft_phase_aero_forces(weft_world* world, int32_t begin, int32_t end);
// The air's acceleration of particle p (m/s²): the sum of its triangles' thirds × inverse mass.
weft_vec3 weft_aero_acceleration(const weft_world* world, int32_t p);

#endif
