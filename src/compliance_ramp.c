// Compliance settings worked down to: a cloth left stretched by a soft setting (draped on the
// stopped sphere at 0.1 m/N, 15% longer at 24²) springs back at once when made stiff, and the
// stretch it held becomes velocity: 12.0 m/s, its top thrown from 1.2 m to 1.62 m. A type set less
// compliant on a world that has stepped keeps its constraints' compliance and moves it down by
// WEFT_COMPLIANCE_RAMP a frame (weft_world_advance_compliance_ramp, at the start of each
// weft_world_step) until it reaches the setting: 7.5 m/s, its top stays at 1.2 m. Ramps of 1.25
// (4.1 m/s) and 2 (11.2 m/s, 1.28 m) were measured beside 1.5. More compliant settings, and any
// setting from rest, take effect at once (tests/unit/test_compliance_ramp.c). Not mended by it: a
// soft cloth sagged through the bunny's ears, at any ramp, is torn off them when made stiff.
#include "world_internal.h"

// Below this (m/N) a constraint is as stiff as its solve makes it at any substep a frame can take
// (WEFT_MIN_FRAME_DT over WEFT_MAX_SUBSTEPS: compliance / h² stays far below any inverse mass):
// the ramp goes straight to the setting from there (a setting of 0 is never reached by division).
#define STIFF_ENOUGH 1e-12f

// The compliance of every constraint of a type, in both copies the solvers read.
static void compliance_write(weft_world* world, weft_constraint_type type, float compliance) {
	world->compliance_now[type] = compliance;
	for (int32_t k = 0; k < world->constraint_count; ++k) {
		if (world->types[k] == (uint8_t)type) {
			world->constraints[k].compliance = compliance;
			world->compliances[k] = compliance;
		}
	}
}

static weft_result set_compliance(weft_world* world, weft_constraint_type type, float compliance, bool gradually) {
	if (world == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "world is NULL");
	}
	if (type < WEFT_STRETCH || type > WEFT_BEND) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "unknown constraint type %d", (int)type);
	}
	weft_result result = weft_validate_compliance(compliance, "compliance");
	if (result != WEFT_OK) {
		return result;
	}
	world->compliance_wanted[type] = compliance;
	if (!gradually || compliance >= world->compliance_now[type]) {
		compliance_write(world, type, compliance);
	}
	return WEFT_OK;
}

weft_result weft_world_set_compliance(weft_world* world, weft_constraint_type type, float compliance) {
	return set_compliance(world, type, compliance, world != NULL && world->substeps_run > 0);
}

weft_result weft_world_set_compliance_gradually(weft_world* world, weft_constraint_type type, float compliance,
                                                bool gradually) {
	return set_compliance(world, type, compliance, gradually);
}

float weft_world_compliance(const weft_world* world, weft_constraint_type type) {
	return world != NULL && type >= WEFT_STRETCH && type <= WEFT_BEND ? world->compliance_wanted[type] : -1.0f;
}

float weft_world_compliance_now(const weft_world* world, weft_constraint_type type) {
	return world != NULL && type >= WEFT_STRETCH && type <= WEFT_BEND ? world->compliance_now[type] : -1.0f;
}

bool weft_world_advance_compliance_ramp(weft_world* world) {
	if (world == NULL) {
		return false;
	}
	bool changed = false;
	for (int type = WEFT_STRETCH; type <= WEFT_BEND; ++type) {
		const float wanted = world->compliance_wanted[type], now = world->compliance_now[type];
		if (now > wanted) {
			const float next = now / WEFT_COMPLIANCE_RAMP;
			compliance_write(world, (weft_constraint_type)type, next > wanted && next > STIFF_ENOUGH ? next : wanted);
			changed = true;
		}
	}
	return changed;
}

void weft_compliance_settle(weft_world* world) {
	for (int type = WEFT_STRETCH; type <= WEFT_BEND; ++type) {
		if (world->compliance_now[type] != world->compliance_wanted[type]) {
			compliance_write(world, (weft_constraint_type)type, world->compliance_wanted[type]);
		}
	}
}
