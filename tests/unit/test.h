// Minimal test harness with named cases (Box2D's test_macros.h is the model).
//
//   TEST(sphere_friction) { ... CHECK(...); ... }
//   int main(int argc, char** argv) {
//       TEST_INIT(argc, argv);
//       RUN_TEST(sphere_friction);
//       return TEST_SUMMARY();
//   }
//
// CHECK records a failure and goes on; a failure names its case ("file.c:12: [sphere_friction]
// CHECK failed: ..."). Each case prints one line, "ok   name" or "FAIL name (k of n checks
// failed)". A filter runs only the cases whose name contains it: the first command-line argument,
// else the environment variable WEFT_TEST_FILTER. TEST_SUMMARY() prints the final line "N passed,
// N failed" (the checks; CI parses it) and gives the exit code.
#ifndef WEFT_TEST_H
#define WEFT_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_passed_count = 0;
static int test_failed_count = 0;
static const char* test_case_name = "main";
static const char* test_filter = NULL;
static int test_cases_run = 0;
static int test_cases_failed = 0;

#define CHECK(condition)                                                                                       \
	do {                                                                                                       \
		if (condition) {                                                                                       \
			test_passed_count++;                                                                               \
		} else {                                                                                               \
			test_failed_count++;                                                                               \
			fprintf(stderr, "%s:%d: [%s] CHECK failed: %s\n", __FILE__, __LINE__, test_case_name, #condition); \
		}                                                                                                      \
	} while (0)

#define CHECK_NEAR(actual, expected, tolerance)                                                                     \
	do {                                                                                                            \
		double check_a_ = (double)(actual), check_e_ = (double)(expected);                                          \
		if (fabs(check_a_ - check_e_) <= (double)(tolerance)) {                                                     \
			test_passed_count++;                                                                                    \
		} else {                                                                                                    \
			test_failed_count++;                                                                                    \
			fprintf(stderr, "%s:%d: [%s] CHECK_NEAR failed: %s = %.9g, expected %.9g ± %.3g\n", __FILE__, __LINE__, \
			        test_case_name, #actual, check_a_, check_e_, (double)(tolerance));                              \
		}                                                                                                           \
	} while (0)

// Defines the case `name` (a function; run it with RUN_TEST).
#define TEST(name) static void test_case_##name(void)

// Runs the case `name` unless the filter leaves it out.
#define RUN_TEST(name) test_run_case(#name, test_case_##name)

// Reads the filter: argv[1] if given, else WEFT_TEST_FILTER (absent or empty: every case runs).
#define TEST_INIT(argc, argv) test_init((argc), (argv))

static void test_init(int argc, char** argv) {
	const char* filter = argc > 1 ? argv[1] : getenv("WEFT_TEST_FILTER");
	test_filter = filter != NULL && filter[0] != '\0' ? filter : NULL;
}

static void test_run_case(const char* name, void (*run)(void)) {
	if (test_filter != NULL && strstr(name, test_filter) == NULL) {
		return;
	}
	int failed_before = test_failed_count, checks_before = test_passed_count + test_failed_count;
	test_case_name = name;
	run();
	test_case_name = "main";
	int failed = test_failed_count - failed_before;
	int checks = test_passed_count + test_failed_count - checks_before;
	test_cases_run++;
	if (failed == 0) {
		printf("ok   %s\n", name);
	} else {
		test_cases_failed++;
		printf("FAIL %s (%d of %d checks failed)\n", name, failed, checks);
	}
	fflush(stdout);
}

#define TEST_SUMMARY()                                                              \
	((test_filter != NULL && test_cases_run == 0                                    \
	      ? (void)fprintf(stderr, "no case matches the filter '%s'\n", test_filter) \
	      : (void)0),                                                               \
	 printf("%d passed, %d failed\n", test_passed_count, test_failed_count), test_failed_count == 0 ? 0 : 1)

#endif
