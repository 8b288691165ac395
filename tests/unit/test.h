// Minimal test harness: CHECK records a failure and goes on; each test file ends with
// TEST_SUMMARY(), which prints "N passed, N failed" and sets the exit code.
#ifndef WEFT_TEST_H
#define WEFT_TEST_H

#include <math.h>
#include <stdio.h>

static int test_passed_count = 0;
static int test_failed_count = 0;

#define CHECK(condition)                                                                        \
	do {                                                                                        \
		if (condition) {                                                                        \
			test_passed_count++;                                                                \
		} else {                                                                                \
			test_failed_count++;                                                                \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #condition);       \
		}                                                                                       \
	} while (0)

#define CHECK_NEAR(actual, expected, tolerance)                                                 \
	do {                                                                                        \
		double check_a_ = (double)(actual), check_e_ = (double)(expected);                      \
		if (fabs(check_a_ - check_e_) <= (double)(tolerance)) {                                 \
			test_passed_count++;                                                                \
		} else {                                                                                \
			test_failed_count++;                                                                \
			fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.9g, expected %.9g ± %.3g\n",      \
			        __FILE__, __LINE__, #actual, check_a_, check_e_, (double)(tolerance));      \
		}                                                                                       \
	} while (0)

#define TEST_SUMMARY()                                                                          \
	(printf("%d passed, %d failed\n", test_passed_count, test_failed_count),                    \
	 test_failed_count == 0 ? 0 : 1)

#endif
