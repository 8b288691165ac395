#include "collider_message.h"

#include <ctype.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "args.h"

// The message without a leading "weft_...: " (the C function that refused).
static const char* reason_of(const char* message) {
	if (strncmp(message, "weft_", 5) != 0) return message;
	const char* c = message + 5;
	while (islower((unsigned char)*c) || isdigit((unsigned char)*c) || *c == '_') ++c;
	return strncmp(c, ": ", 2) == 0 ? c + 2 : message;
}

// Line (from 1) of the index-th (from 0) `v` statement of the file, or 0 if there is none.
static int64_t vertex_line(const char* path, int64_t index) {
	FILE* file = fopen(path, "rb");
	if (file == NULL) return 0;
	int64_t line = 1, seen = 0, found = 0;
	bool line_start = true;
	int c = fgetc(file);
	while (c != EOF && found == 0) {
		const int next = fgetc(file);
		if (c == '\n') {
			line++;
			line_start = true;
		} else if (line_start && (c == ' ' || c == '\t')) {
			// indentation before the statement
		} else if (line_start) {
			line_start = false;
			if (c == 'v' && (next == ' ' || next == '\t') && seen++ == index) found = line;
		}
		c = next;
	}
	fclose(file);
	return found;
}

void collider_error(const char* path, const char* message) {
	const char* reason = reason_of(message);
	long long vertex;
	int consumed = 0;
	if (sscanf(reason, "vertex %lld%n", &vertex, &consumed) == 1 && vertex >= 0) {
		const int64_t line = vertex_line(path, vertex);
		if (line > 0) {
			cli_error("%s:%" PRId64 ": vertex %lld%s", path, line, vertex + 1, reason + consumed);
			return;
		}
	}
	cli_error("%s: %s", path, reason);
}
