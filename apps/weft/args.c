#include "args.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cli_error(const char* format, ...) {
	va_list list;
	va_start(list, format);
	fputs("error: ", stderr);
	vfprintf(stderr, format, list);
	fputc('\n', stderr);
	va_end(list);
}

bool args_parse(int argc, char** argv, const char* const* allowed, args* out) {
	out->count = 0;
	for (int k = 0; k < argc; ++k) {
		const char* arg = argv[k];
		if (strncmp(arg, "--", 2) != 0) {
			cli_error("unexpected argument '%s'", arg);
			return false;
		}
		const char* name = arg + 2;
		bool known = false;
		for (const char* const* allowed_name = allowed; *allowed_name != NULL; ++allowed_name) {
			known = known || strcmp(*allowed_name, name) == 0;
		}
		if (!known) {
			const char* equals = strchr(name, '=');
			if (equals != NULL) {
				cli_error("unknown option '%s' (an option and its value are two arguments: --%.*s %s)", arg,
				          (int)(equals - name), name, equals + 1);
			} else {
				cli_error("unknown option '%s'", arg);
			}
			return false;
		}
		if (args_get(out, name) != NULL) {
			cli_error("option '%s' given twice", arg);
			return false;
		}
		if (k + 1 >= argc) {
			cli_error("option '%s' needs a value", arg);
			return false;
		}
		if (out->count >= ARGS_MAX) {
			cli_error("too many options");
			return false;
		}
		out->names[out->count] = name;
		out->values[out->count] = argv[++k];
		out->count++;
	}
	return true;
}

const char* args_get(const args* a, const char* name) {
	for (int k = 0; k < a->count; ++k) {
		if (strcmp(a->names[k], name) == 0) {
			return a->values[k];
		}
	}
	return NULL;
}

// An integer in decimal; *out_range: one too large (or small) for 64 bits.
static bool parse_int(const char* text, int64_t* out, bool* out_range) {
	*out_range = false;
	if (text == NULL || *text == '\0') {
		return false;
	}
	char* end = NULL;
	errno = 0;
	long long value = strtoll(text, &end, 10);
	if (end == text || *end != '\0') {
		return false;
	}
	if (errno == ERANGE) {
		*out_range = true;
		return false;
	}
	*out = value;
	return true;
}

bool args_int(const args* a, const char* name, int64_t fallback, int64_t min, int64_t max, int64_t* out) {
	const char* text = args_get(a, name);
	if (text == NULL) {
		*out = fallback;
		return true;
	}
	int64_t value;
	bool out_of_range;
	if (!parse_int(text, &value, &out_of_range)) {
		if (out_of_range) {
			cli_error("--%s must be in %lld..%lld (got '%s')", name, (long long)min, (long long)max, text);
		} else {
			cli_error("--%s must be an integer (got '%s')", name, text);
		}
		return false;
	}
	if (value < min || value > max) {
		cli_error("--%s must be in %lld..%lld (got %lld)", name, (long long)min, (long long)max, (long long)value);
		return false;
	}
	*out = value;
	return true;
}

bool args_float(const args* a, const char* name, double fallback, double min, double max, double* out) {
	const char* text = args_get(a, name);
	if (text == NULL) {
		*out = fallback;
		return true;
	}
	char* end = NULL;
	errno = 0;
	const double value = strtod(text, &end);
	// Decimal only, as the integers: strtod also reads hexadecimal ("0x10") and "inf" / "nan".
	const bool hexadecimal = strchr(text, 'x') != NULL || strchr(text, 'X') != NULL;
	if (end == text || *end != '\0' || errno == ERANGE || !isfinite(value) || hexadecimal) {
		cli_error("--%s must be a number (got '%s')", name, text);
		return false;
	}
	if (!(value >= min && value <= max)) {
		cli_error("--%s must be in [%g, %g] (got %g)", name, min, max, value);
		return false;
	}
	*out = value;
	return true;
}

bool args_grid(const args* a, const char* name, int32_t fallback, int32_t* width, int32_t* height) {
	const char* text = args_get(a, name);
	if (text == NULL) {
		*width = fallback;
		*height = fallback;
		return true;
	}
	char buffer[64];
	if (strlen(text) >= sizeof buffer) {
		cli_error("--%s must be N or WxH (got '%s')", name, text);
		return false;
	}
	strcpy(buffer, text);
	char* x = strchr(buffer, 'x');
	int64_t w = 0, h = 0;
	bool w_range = false, h_range = false, w_ok, h_ok;
	if (x != NULL) {
		*x = '\0';
		w_ok = parse_int(buffer, &w, &w_range);
		h_ok = parse_int(x + 1, &h, &h_range);
	} else {
		w_ok = h_ok = parse_int(buffer, &w, &w_range);
		h = w;
		h_range = w_range;
	}
	if ((!w_ok && !w_range) || (!h_ok && !h_range)) {
		cli_error("--%s must be N or WxH (got '%s')", name, text);
		return false;
	}
	if (!w_ok || !h_ok) { // beyond 64 bits
		cli_error("--%s is too large: at most 4096 per side (got '%s')", name, text);
		return false;
	}
	if (w < 1 || h < 1) {
		cli_error("--%s sides must be at least 1 (got '%s')", name, text);
		return false;
	}
	if (w > 4096 || h > 4096) {
		cli_error("--%s is too large: at most 4096 per side (got '%s')", name, text);
		return false;
	}
	*width = (int32_t)w;
	*height = (int32_t)h;
	return true;
}
