// OBJ reader: every statement form the reader accepts, and malformed input that must fail with
// WEFT_ERROR_PARSE naming the right line.
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "weft/weft.h"

static weft_result parse(const char* text, weft_mesh_data* mesh) {
	return weft_obj_parse(text, strlen(text), "test.obj", NULL, mesh);
}

// Expects a parse error whose message starts with "test.obj:<line>:" and contains `reason`.
static void expect_error(const char* text, int line, const char* reason) {
	weft_mesh_data mesh;
	weft_result result = parse(text, &mesh);
	char prefix[32];
	snprintf(prefix, sizeof prefix, "test.obj:%d: ", line);
	const char* message = weft_last_error();
	bool ok = result == WEFT_ERROR_PARSE && strncmp(message, prefix, strlen(prefix)) == 0 &&
	          strstr(message, reason) != NULL && mesh.positions == NULL && mesh.triangle_count == 0;
	if (!ok) {
		fprintf(stderr, "expected %s...%s, got %d \"%s\" for:\n%s\n", prefix, reason, (int)result, message, text);
	}
	CHECK(ok);
	weft_mesh_data_free(&mesh);
}

TEST(face_forms) {
	weft_mesh_data mesh;
	// Every face form, comments, blank lines, ignored statements, extra whitespace.
	const char* forms = "# a comment\n"
	                    "mtllib box.mtl\n"
	                    "o thing\n"
	                    "\n"
	                    "v 0 0 0\n"
	                    "v 1.0 0 0 1.0\n"
	                    "v\t1 1 0   # trailing comment\n"
	                    "v 0 1e0 -0.0\n"
	                    "v -1.5E+1 +2.5e-1 .5\n"
	                    "vt 0 0\n"
	                    "vt 1 0\n"
	                    "vt 1 1\n"
	                    "vn 0 0 1\n"
	                    "g group\n"
	                    "usemtl red\n"
	                    "s off\n"
	                    "f 1 2 3\n"
	                    "f 1/1 2/2 3/3\n"
	                    "f 1//1 2//1 3//1\n"
	                    "f 1/1/1 2/2/1 3/3/1\n"
	                    "   f   1 2 3   \n"
	                    "l 1 2\n";
	CHECK(parse(forms, &mesh) == WEFT_OK);
	CHECK(mesh.vertex_count == 5);
	CHECK(mesh.triangle_count == 5);
	CHECK(mesh.texcoord_count == 3);
	CHECK(mesh.normal_count == 1);
	CHECK_NEAR(mesh.positions[3 * 4 + 0], -15.0, 1e-6);
	CHECK_NEAR(mesh.positions[3 * 4 + 1], 0.25, 1e-7);
	CHECK_NEAR(mesh.positions[3 * 4 + 2], 0.5, 1e-7);
	for (int t = 0; t < 5; t++) {
		CHECK(mesh.indices[3 * t + 0] == 0 && mesh.indices[3 * t + 1] == 1 && mesh.indices[3 * t + 2] == 2);
	}
	weft_mesh_data_free(&mesh);
	CHECK(mesh.positions == NULL && mesh.indices == NULL);
}

TEST(crlf_relative_fan) {
	weft_mesh_data mesh;
	// CRLF, negative (relative) indices, a quad and a pentagon fanned from the first vertex, no
	// newline at the end.
	const char* crlf = "v 0 0 0\r\nv 1 0 0\r\nv 1 1 0\r\nv 0 1 0\r\nf -4 -3 -2 -1\r\nv 0.5 2 0\r\n"
	                   "f 1 2 3 5 4";
	CHECK(parse(crlf, &mesh) == WEFT_OK);
	CHECK(mesh.vertex_count == 5);
	CHECK(mesh.triangle_count == 2 + 3);
	const uint32_t expected[] = {0, 1, 2, 0, 2, 3, 0, 1, 2, 0, 2, 4, 0, 4, 3};
	CHECK(mesh.triangle_count == 5 && memcmp(mesh.indices, expected, sizeof expected) == 0);
	weft_mesh_data_free(&mesh);
}

TEST(byte_order_mark) {
	weft_mesh_data mesh;
	// A UTF-8 byte order mark at the start is skipped.
	CHECK(parse("\xEF\xBB\xBFv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", &mesh) == WEFT_OK && mesh.triangle_count == 1);
	weft_mesh_data_free(&mesh);
}

TEST(number_precision) {
	weft_mesh_data mesh;
	// Precision of the number parser against known floats.
	CHECK(parse("v 3.14159265358979 -2.718281828 123456.789\nv 1e-30 0.000001 1234567890123456789012\nf 1 2 1\n",
	            &mesh) == WEFT_OK);
	CHECK(mesh.positions[0] == 3.14159265358979f);
	CHECK(mesh.positions[1] == -2.718281828f);
	CHECK(mesh.positions[2] == 123456.789f);
	CHECK(mesh.positions[3] == 1e-30f);
	CHECK(mesh.positions[4] == 0.000001f);
	CHECK_NEAR(mesh.positions[5], 1.234567890123456789e21, 1e15);
	weft_mesh_data_free(&mesh);
}

TEST(malformed_lines) {
	weft_mesh_data mesh;
	// Malformed input: each names its line and why.
	expect_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", 4, "vertex index 4 out of range (3 defined)");
	expect_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n", 4, "index 0");
	expect_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf -4 1 2\n", 4, "out of range");
	expect_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/1 2/1 3/1\n", 4, "texture coordinate index 1 out of range");
	expect_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1//2 2//2 3//2\n", 4, "normal index 2 out of range");
	expect_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2\n", 4, "at least 3 vertices");
	expect_error("v 0 0 0\nv 1 0\n", 2, "too few values");
	expect_error("v 0 0 0\nv 1 0 zero\n", 2, "bad number 'zero'");
	expect_error("v 0 0 0\nv 1 0 1.5x\n", 2, "bad number");
	expect_error("v 0 0 0\nv 1 0 nan\n", 2, "bad number");
	expect_error("v 0 0 0\nv 1 0 1e\n", 2, "bad number");
	expect_error("v 0 0 0\nv 1 0 -\n", 2, "bad number");
	expect_error("v 0 0 0\nv 1 0 1e39\n", 2, "out of range");
	expect_error("v 1 2 3 4 5 6 7 8\n", 1, "too many values");
	expect_error("vn 0 1\n", 1, "too few values");
	expect_error("v 0 0 0\r\nv 1 0 0\r\n\r\nbogus 1 2\r\n", 4, "unknown statement 'bogus'");
	expect_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3/\n", 4, "truncated vertex reference");
	expect_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3x\n", 4, "bad vertex reference");
	expect_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 99999999999999999999999\n", 4, "out of range");
	// The index as written, not a saturated value (issue 12: 99999999999999999999 read as 9999999999999).
	expect_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 99999999999999999999\n", 4,
	             "vertex index 99999999999999999999 out of range (3 defined)");
	expect_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 -99999999999999999999\n", 4,
	             "vertex index -99999999999999999999 out of range (3 defined)");
	expect_error("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3/123456789012345678901234567890123456789012345\n", 4,
	             "texture coordinate index of 45 characters out of range");
	expect_error("v 0 0 0\nv 1 0 0\n\x7f"
	             "ELF\x01\x02\n",
	             3, "binary data");
	expect_error("v 0 0 0\nv 1 0 0\nv 0 1 0\n# only vertices\n", 4, "no faces");
	expect_error("", 1, "no faces");
	{
		const char nul_text[] = "v 0 0 0\nv 1 0\0 0\nv 0 1 0\nf 1 2 3\n";
		weft_result result = weft_obj_parse(nul_text, sizeof nul_text - 1, "test.obj", NULL, &mesh);
		CHECK(result == WEFT_ERROR_PARSE && strstr(weft_last_error(), "test.obj:2: binary data (byte 0x00)"));
	}
}

TEST(unterminated_buffer) {
	weft_mesh_data mesh;
	// The buffer need not be NUL-terminated: a number running into the end of the buffer stops there.
	{
		const char text[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nv 1 2 345678";
		char* exact = malloc(sizeof text - 1);
		memcpy(exact, text, sizeof text - 1);
		CHECK(weft_obj_parse(exact, sizeof text - 1, "x", NULL, &mesh) == WEFT_OK);
		CHECK(mesh.vertex_count == 4 && mesh.positions[11] == 345678.0f);
		weft_mesh_data_free(&mesh);
		free(exact);
	}
}

TEST(huge_counts) {
	weft_mesh_data mesh;
	// Huge counts: a face with 300k corners is fine (fanned); an index past the limit is not. (A
	// million made Node 20 segfault in the next WASI instance of the wasm test runner.)
	{
		size_t corners = 300000;
		char* big = malloc(32 + corners * 3);
		size_t n = (size_t)sprintf(big, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf");
		for (size_t i = 0; i < corners; i++) {
			memcpy(big + n, " -1", 3);
			n += 3;
		}
		CHECK(weft_obj_parse(big, n, "big.obj", NULL, &mesh) == WEFT_OK);
		CHECK(mesh.triangle_count == (int32_t)corners - 2);
		weft_mesh_data_free(&mesh);
		free(big);
	}
}

TEST(invalid_arguments) {
	weft_mesh_data mesh;
	// Invalid arguments.
	CHECK(weft_obj_parse(NULL, 5, "x", NULL, &mesh) == WEFT_ERROR_INVALID_ARGUMENT);
	CHECK(weft_obj_parse("f", 1, "x", NULL, NULL) == WEFT_ERROR_INVALID_ARGUMENT);
	weft_mesh_data_free(NULL);
}

TEST(files) {
	weft_mesh_data mesh;
	// Files: a committed test file, and a path that does not exist.
	CHECK(weft_obj_load(WEFT_SOURCE_DIR "/tests/data/tetrahedron.obj", NULL, &mesh) == WEFT_OK);
	CHECK(mesh.vertex_count == 4 && mesh.triangle_count == 4);
	weft_mesh_data_free(&mesh);
	CHECK(weft_obj_load(WEFT_SOURCE_DIR "/tests/data/no-such-file.obj", NULL, &mesh) == WEFT_ERROR_IO);
	CHECK(weft_obj_load(WEFT_SOURCE_DIR "/tests/data/bad_index.obj", NULL, &mesh) == WEFT_ERROR_PARSE);
	CHECK(strstr(weft_last_error(), "bad_index.obj:6: ") != NULL);
}

int main(int argc, char** argv) {
	TEST_INIT(argc, argv);
	RUN_TEST(face_forms);
	RUN_TEST(crlf_relative_fan);
	RUN_TEST(byte_order_mark);
	RUN_TEST(number_precision);
	RUN_TEST(malformed_lines);
	RUN_TEST(unterminated_buffer);
	RUN_TEST(huge_counts);
	RUN_TEST(invalid_arguments);
	RUN_TEST(files);
	return TEST_SUMMARY();
}
