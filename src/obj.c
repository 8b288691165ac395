// Wavefront OBJ reader: positions and triangles for mesh colliders.
//
// The reader is a single bounded scan over the bytes: every access is checked against the end of
// the buffer (the buffer need not be NUL-terminated, so a file dropped onto the page is parsed in
// place), numbers are parsed here rather than by strtod (no locale, no hex floats, no "nan"), and
// counts are capped, so hostile input ends in WEFT_ERROR_PARSE with "name:line: why", never in a
// crash, a hang or an unbounded allocation.
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "world_internal.h"

typedef struct obj_parser {
	const char* name;
	int64_t line;
	weft_allocator allocator;
	float* positions;
	uint32_t* indices;
	int64_t vertex_count, vertex_capacity;
	int64_t index_count, index_capacity;
	int64_t texcoord_count, normal_count;
	weft_result error;
} obj_parser;

static weft_result parse_error(obj_parser* parser, const char* reason, const char* detail) {
	parser->error = WEFT_ERROR_PARSE;
	return weft_fail(WEFT_ERROR_PARSE, "%s:%lld: %s%s", parser->name, (long long)parser->line, reason,
	                 detail ? detail : "");
}

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

static const char* skip_spaces(const char* s, const char* end) {
	while (s < end && is_space(*s)) {
		s++;
	}
	return s;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Decimal number: [+-] digits [. digits] [e [+-] digits], or [+-] . digits ...; at least one digit.
// Returns false on malformed text; *out_range is set false when the value does not fit a float.
static bool parse_number(const char** cursor, const char* end, float* out, bool* out_in_range) {
	const char* s = *cursor;
	bool negative = false;
	*out_in_range = true;
	if (s < end && (*s == '+' || *s == '-')) {
		negative = *s == '-';
		s++;
	}
	uint64_t mantissa = 0;
	int64_t exponent = 0; // decimal exponent applied to mantissa
	int digits = 0, significant = 0;
	while (s < end && is_digit(*s)) {
		if (significant < 19) {
			mantissa = mantissa * 10 + (uint64_t)(*s - '0');
			if (mantissa != 0) {
				significant++;
			}
		} else {
			exponent++;
		}
		digits++;
		s++;
	}
	if (s < end && *s == '.') {
		s++;
		while (s < end && is_digit(*s)) {
			if (significant < 19) {
				mantissa = mantissa * 10 + (uint64_t)(*s - '0');
				if (mantissa != 0) {
					significant++;
				}
				exponent--;
			}
			digits++;
			s++;
		}
	}
	if (digits == 0) {
		return false;
	}
	if (s < end && (*s == 'e' || *s == 'E')) {
		s++;
		bool exponent_negative = false;
		if (s < end && (*s == '+' || *s == '-')) {
			exponent_negative = *s == '-';
			s++;
		}
		if (s >= end || !is_digit(*s)) {
			return false;
		}
		int64_t value = 0;
		while (s < end && is_digit(*s)) {
			if (value < 100000) {
				value = value * 10 + (*s - '0');
			}
			s++;
		}
		exponent += exponent_negative ? -value : value;
	}
	double result = (double)mantissa;
	if (mantissa != 0) {
		if (exponent > 60) {
			*out_in_range = false;
			result = 0.0;
		} else if (exponent < -80) {
			result = 0.0; // underflows to zero in float anyway
		} else {
			double scale = 1.0;
			int64_t e = exponent < 0 ? -exponent : exponent;
			while (e >= 22) {
				scale *= 1e22;
				e -= 22;
			}
			static const double powers[22] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10,
			                                  1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21};
			scale *= powers[e];
			result = exponent < 0 ? result / scale : result * scale;
			if (!(result <= 3.4028234663852886e38)) {
				*out_in_range = false;
				result = 0.0;
			}
		}
	}
	*out = (float)(negative ? -result : result);
	*cursor = s;
	return true;
}

// Index: [+-] digits. Magnitudes beyond 2^40 are clamped (they are out of range anyway).
// An index as read: its value (saturated beyond 2^40) and its text, for messages.
typedef struct obj_index {
	int64_t value;
	const char* text;
	int length;
} obj_index;

static bool parse_index(const char** cursor, const char* end, obj_index* out) {
	const char* s = *cursor;
	out->text = s;
	bool negative = false;
	if (s < end && (*s == '+' || *s == '-')) {
		negative = *s == '-';
		s++;
	}
	if (s >= end || !is_digit(*s)) {
		return false;
	}
	int64_t value = 0;
	while (s < end && is_digit(*s)) {
		if (value < ((int64_t)1 << 40)) {
			value = value * 10 + (*s - '0');
		}
		s++;
	}
	out->value = negative ? -value : value;
	out->length = (int)(s - out->text < 1000000 ? s - out->text : 1000000);
	*cursor = s;
	return true;
}

static bool grow(obj_parser* parser, void** array, int64_t* capacity, int64_t needed, size_t element_size) {
	if (needed <= *capacity) {
		return true;
	}
	int64_t new_capacity = *capacity ? *capacity * 2 : 1024;
	while (new_capacity < needed) {
		new_capacity *= 2;
	}
	void* grown = weft_alloc(&parser->allocator, (size_t)new_capacity * element_size);
	if (grown == NULL) {
		parser->error =
		    weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "%s:%lld: out of memory", parser->name, (long long)parser->line);
		return false;
	}
	if (*array != NULL) {
		memcpy(grown, *array, (size_t)*capacity * element_size);
		weft_free(&parser->allocator, *array);
	}
	*array = grown;
	*capacity = new_capacity;
	return true;
}

// After a value a statement needs whitespace or the end of the line ("1.5x" is not a number).
static bool at_separator(const char* s, const char* end) { return s >= end || is_space(*s); }

// v x y z [w | r g b]; vt u [v [w]]; vn x y z. Only v keeps its values.
static weft_result parse_vector(obj_parser* parser, const char* s, const char* end, const char* keyword, int min_count,
                                int max_count, float* out) {
	int count = 0;
	for (;;) {
		s = skip_spaces(s, end);
		if (s >= end) {
			break;
		}
		float value;
		bool in_range;
		const char* start = s;
		if (!parse_number(&s, end, &value, &in_range) || !at_separator(s, end)) {
			char token[24];
			size_t length = 0;
			while (start + length < end && !is_space(start[length]) && length + 1 < sizeof token) {
				length++;
			}
			memcpy(token, start, length);
			token[length] = '\0';
			char detail[64];
			snprintf(detail, sizeof detail, "'%s' in '%s'", token, keyword);
			return parse_error(parser, "bad number ", detail);
		}
		if (!in_range) {
			return parse_error(parser, "number out of range in ", keyword);
		}
		if (count >= max_count) {
			return parse_error(parser, "too many values in ", keyword);
		}
		if (count < 3) {
			out[count] = value;
		}
		count++;
	}
	if (count < min_count) {
		return parse_error(parser, "truncated statement: too few values in ", keyword);
	}
	return WEFT_OK;
}

// Resolves a 1-based (or negative, relative) OBJ index against the count defined so far.
static weft_result resolve_index(obj_parser* parser, obj_index read, int64_t defined, const char* what, int64_t* out) {
	char detail[128];
	int64_t index = read.value;
	if (index == 0) {
		snprintf(detail, sizeof detail, "%s index 0 (OBJ indices start at 1)", what);
		return parse_error(parser, "invalid ", detail);
	}
	int64_t resolved = index > 0 ? index - 1 : defined + index;
	if (resolved < 0 || resolved >= defined) {
		// The number as written (a saturated value would print as some other number).
		if (read.length <= 40) {
			snprintf(detail, sizeof detail, "%s index %.*s out of range (%lld defined)", what, read.length, read.text,
			         (long long)defined);
		} else {
			snprintf(detail, sizeof detail, "%s index of %d characters out of range (%lld defined)", what, read.length,
			         (long long)defined);
		}
		return parse_error(parser, "", detail);
	}
	*out = resolved;
	return WEFT_OK;
}

// f a b c ...: each vertex is v, v/vt, v//vn or v/vt/vn; the polygon is fanned from its first vertex.
static weft_result parse_face(obj_parser* parser, const char* s, const char* end) {
	int64_t first = -1, previous = -1;
	int64_t count = 0;
	for (;;) {
		s = skip_spaces(s, end);
		if (s >= end) {
			break;
		}
		obj_index index;
		int64_t vertex = 0;
		if (!parse_index(&s, end, &index)) {
			return parse_error(parser, "bad vertex reference in 'f'", NULL);
		}
		weft_result result = resolve_index(parser, index, parser->vertex_count, "vertex", &vertex);
		if (result != WEFT_OK) {
			return result;
		}
		if (s < end && *s == '/') {
			s++;
			if (at_separator(s, end)) {
				return parse_error(parser, "truncated vertex reference in 'f'", NULL);
			}
			obj_index other;
			int64_t resolved;
			if (s < end && *s != '/') {
				if (!parse_index(&s, end, &other)) {
					return parse_error(parser, "bad texture coordinate reference in 'f'", NULL);
				}
				result = resolve_index(parser, other, parser->texcoord_count, "texture coordinate", &resolved);
				if (result != WEFT_OK) {
					return result;
				}
			}
			if (s < end && *s == '/') {
				s++;
				if (!parse_index(&s, end, &other)) {
					return parse_error(parser, "bad normal reference in 'f'", NULL);
				}
				result = resolve_index(parser, other, parser->normal_count, "normal", &resolved);
				if (result != WEFT_OK) {
					return result;
				}
			}
		}
		if (!at_separator(s, end)) {
			return parse_error(parser, "bad vertex reference in 'f'", NULL);
		}
		if (count == 0) {
			first = vertex;
		} else if (count >= 2) {
			if (parser->index_count + 3 > (int64_t)WEFT_OBJ_MAX_ELEMENTS * 3) {
				return parse_error(parser, "too many triangles (limit 16777216)", NULL);
			}
			if (!grow(parser, (void**)&parser->indices, &parser->index_capacity, parser->index_count + 3,
			          sizeof(uint32_t))) {
				return parser->error;
			}
			uint32_t* triangle = parser->indices + parser->index_count;
			triangle[0] = (uint32_t)first;
			triangle[1] = (uint32_t)previous;
			triangle[2] = (uint32_t)vertex;
			parser->index_count += 3;
		}
		previous = vertex;
		count++;
	}
	if (count < 3) {
		return parse_error(parser, "truncated statement: a face needs at least 3 vertices", NULL);
	}
	return WEFT_OK;
}

static bool keyword_is(const char* s, size_t length, const char* keyword) {
	return strlen(keyword) == length && memcmp(s, keyword, length) == 0;
}

static weft_result parse_line(obj_parser* parser, const char* s, const char* end) {
	// Binary junk: control characters other than whitespace (NUL, ESC, DEL, ...).
	for (const char* c = s; c < end; c++) {
		unsigned char byte = (unsigned char)*c;
		if ((byte < 0x20 && !is_space((char)byte)) || byte == 0x7f) {
			char detail[32];
			snprintf(detail, sizeof detail, "(byte 0x%02x)", byte);
			return parse_error(parser, "binary data ", detail);
		}
	}
	for (const char* c = s; c < end; c++) {
		if (*c == '#') {
			end = c; // comment to the end of the line
			break;
		}
	}
	s = skip_spaces(s, end);
	if (s >= end) {
		return WEFT_OK;
	}
	const char* keyword = s;
	while (s < end && !is_space(*s)) {
		s++;
	}
	size_t length = (size_t)(s - keyword);
	if (keyword_is(keyword, length, "v")) {
		float xyz[3];
		weft_result result = parse_vector(parser, s, end, "v", 3, 7, xyz);
		if (result != WEFT_OK) {
			return result;
		}
		if (parser->vertex_count >= WEFT_OBJ_MAX_ELEMENTS) {
			return parse_error(parser, "too many vertices (limit 16777216)", NULL);
		}
		if (!grow(parser, (void**)&parser->positions, &parser->vertex_capacity, parser->vertex_count + 1,
		          3 * sizeof(float))) {
			return parser->error;
		}
		memcpy(parser->positions + 3 * parser->vertex_count, xyz, sizeof xyz);
		parser->vertex_count++;
		return WEFT_OK;
	}
	if (keyword_is(keyword, length, "vt") || keyword_is(keyword, length, "vn")) {
		bool normal = keyword[1] == 'n';
		float unused[3];
		weft_result result = parse_vector(parser, s, end, normal ? "vn" : "vt", normal ? 3 : 1, 3, unused);
		if (result != WEFT_OK) {
			return result;
		}
		int64_t* count = normal ? &parser->normal_count : &parser->texcoord_count;
		if (*count >= WEFT_OBJ_MAX_ELEMENTS) {
			return parse_error(parser, normal ? "too many normals" : "too many texture coordinates", NULL);
		}
		(*count)++;
		return WEFT_OK;
	}
	if (keyword_is(keyword, length, "f")) {
		return parse_face(parser, s, end);
	}
	static const char* const ignored[] = {"o", "g", "s", "usemtl", "mtllib", "l", "p", "vp"};
	for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++) {
		if (keyword_is(keyword, length, ignored[i])) {
			return WEFT_OK;
		}
	}
	char detail[48];
	snprintf(detail, sizeof detail, "'%.*s'", length > 16 ? 16 : (int)length, keyword);
	return parse_error(parser, "unknown statement ", detail);
}

weft_result weft_obj_parse(const char* data, size_t size, const char* name, const weft_allocator* allocator,
                           weft_mesh_data* out) {
	if (out == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "weft_obj_parse: out is NULL");
	}
	memset(out, 0, sizeof *out);
	if (data == NULL && size > 0) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "weft_obj_parse: data is NULL");
	}
	obj_parser parser = {0};
	parser.name = name != NULL ? name : "<memory>";
	parser.allocator = weft_resolve_allocator(allocator != NULL ? *allocator : (weft_allocator){0});
	parser.error = WEFT_OK;
	const char* cursor = data;
	const char* end = data + size;
	if (size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0) {
		cursor += 3; // UTF-8 byte order mark (some Windows exporters write one)
	}
	weft_result result = WEFT_OK;
	while (cursor != NULL && cursor < end) {
		parser.line++;
		const char* newline = memchr(cursor, '\n', (size_t)(end - cursor));
		const char* line_end = newline != NULL ? newline : end;
		result = parse_line(&parser, cursor, line_end);
		if (result != WEFT_OK) {
			break;
		}
		cursor = newline != NULL ? newline + 1 : end;
	}
	if (result == WEFT_OK && parser.index_count == 0) {
		if (parser.line == 0) {
			parser.line = 1;
		}
		result = parse_error(&parser, "no faces ('f' statements) in the file", NULL);
	}
	if (result != WEFT_OK) {
		weft_free(&parser.allocator, parser.positions);
		weft_free(&parser.allocator, parser.indices);
		return result;
	}
	out->positions = parser.positions;
	out->indices = parser.indices;
	out->vertex_count = (int32_t)parser.vertex_count;
	out->triangle_count = (int32_t)(parser.index_count / 3);
	out->texcoord_count = (int32_t)parser.texcoord_count;
	out->normal_count = (int32_t)parser.normal_count;
	out->allocator = parser.allocator;
	return WEFT_OK;
}

// Files larger than this are refused (an OBJ of WEFT_OBJ_MAX_ELEMENTS triangles fits well below).
#define OBJ_MAX_FILE_BYTES ((size_t)1 << 30)

// Reads a whole regular file, at most OBJ_MAX_FILE_BYTES. Anything else (a FIFO, a device such as
// /dev/zero, a directory) is refused after fstat: the open is non-blocking, so a FIFO without a
// writer cannot hang it, and nothing is read beyond the limit even if the file grows meanwhile.
static weft_result read_regular_file(const char* path, const weft_allocator* allocator, char** out_data,
                                     size_t* out_size) {
	*out_data = NULL;
	*out_size = 0;
	int fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		return weft_fail(WEFT_ERROR_IO, "%s: cannot open file: %s", path, strerror(errno));
	}
	struct stat info;
	if (fstat(fd, &info) != 0) {
		weft_result failed = weft_fail(WEFT_ERROR_IO, "%s: cannot stat file: %s", path, strerror(errno));
		close(fd);
		return failed;
	}
	if (!S_ISREG(info.st_mode)) {
		close(fd);
		return weft_fail(WEFT_ERROR_IO, "%s: not a regular file", path);
	}
	if (info.st_size < 0 || (uint64_t)info.st_size > OBJ_MAX_FILE_BYTES) {
		close(fd);
		return weft_fail(WEFT_ERROR_TOO_LARGE, "%s: file larger than %zu bytes", path, OBJ_MAX_FILE_BYTES);
	}
	// One byte more than fstat said, so that the end is seen in one pass; grown (up to the limit
	// and one byte) only if the file grew since.
	size_t capacity = (size_t)info.st_size + 1, size = 0;
	char* data = weft_alloc(allocator, capacity);
	weft_result result = data != NULL ? WEFT_OK : weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
	while (result == WEFT_OK) {
		if (size == capacity) {
			if (size > OBJ_MAX_FILE_BYTES) {
				result = weft_fail(WEFT_ERROR_TOO_LARGE, "%s: file larger than %zu bytes", path, OBJ_MAX_FILE_BYTES);
				break;
			}
			size_t new_capacity = capacity * 2 > OBJ_MAX_FILE_BYTES + 1 ? OBJ_MAX_FILE_BYTES + 1 : capacity * 2;
			char* grown = weft_alloc(allocator, new_capacity);
			if (grown == NULL) {
				result = weft_fail(WEFT_ERROR_OUT_OF_MEMORY, "%s: out of memory", path);
				break;
			}
			memcpy(grown, data, size);
			weft_free(allocator, data);
			data = grown;
			capacity = new_capacity;
		}
		ssize_t got = read(fd, data + size, capacity - size);
		if (got < 0 && errno == EINTR) {
			continue;
		}
		if (got < 0) {
			result = weft_fail(WEFT_ERROR_IO, "%s: cannot read file: %s", path, strerror(errno));
		} else if (got == 0) {
			break;
		}
		size += got > 0 ? (size_t)got : 0;
	}
	close(fd);
	if (result != WEFT_OK) {
		weft_free(allocator, data);
		return result;
	}
	*out_data = data;
	*out_size = size;
	return WEFT_OK;
}

weft_result weft_obj_load(const char* path, const weft_allocator* allocator, weft_mesh_data* out) {
	if (out == NULL) {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "weft_obj_load: out is NULL");
	}
	memset(out, 0, sizeof *out);
	if (path == NULL || path[0] == '\0') {
		return weft_fail(WEFT_ERROR_INVALID_ARGUMENT, "weft_obj_load: path is empty");
	}
	weft_allocator resolved = weft_resolve_allocator(allocator != NULL ? *allocator : (weft_allocator){0});
	char* data = NULL;
	size_t size = 0;
	weft_result result = read_regular_file(path, &resolved, &data, &size);
	if (result == WEFT_OK) {
		result = weft_obj_parse(data, size, path, &resolved, out);
	}
	weft_free(&resolved, data);
	return result;
}

void weft_mesh_data_free(weft_mesh_data* mesh) {
	if (mesh == NULL) {
		return;
	}
	weft_allocator allocator = weft_resolve_allocator(mesh->allocator);
	weft_free(&allocator, mesh->positions);
	weft_free(&allocator, mesh->indices);
	memset(mesh, 0, sizeof *mesh);
}
