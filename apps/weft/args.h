// Command-line options: "--name value" pairs checked against the flags a command accepts.
#ifndef WEFT_CLI_ARGS_H
#define WEFT_CLI_ARGS_H

#include <stdbool.h>
#include <stdint.h>

#define ARGS_MAX 16

typedef struct args {
	const char* names[ARGS_MAX];
	const char* values[ARGS_MAX];
	int count;
} args;

// Parses argv into name/value pairs; only names listed in allowed (NULL-terminated) pass.
// Prints "error: ..." and returns false on unknown flags, missing values or repeats.
bool args_parse(int argc, char** argv, const char* const* allowed, args* out);
// The value of --name or NULL.
const char* args_get(const args* a, const char* name);
// Integer option in [min, max]; fallback when absent. Prints an error and returns false if invalid.
bool args_int(const args* a, const char* name, int64_t fallback, int64_t min, int64_t max, int64_t* out);
// Number option in [min, max] (decimal or exponent notation, finite); fallback when absent. Prints an
// error and returns false if invalid.
bool args_float(const args* a, const char* name, double fallback, double min, double max, double* out);
// Grid "N" or "WxH", each side in [1, 4096] (bigger sides are reported as too large).
bool args_grid(const args* a, const char* name, int32_t fallback, int32_t* width, int32_t* height);

// Prints "error: <message>" to stderr (printf-style).
void cli_error(const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif
