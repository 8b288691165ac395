// A text as a JSON string literal: the CLI's JSON names user-given paths, which may hold quotes,
// backslashes or control characters.
#ifndef WEFT_CLI_JSON_STRING_H
#define WEFT_CLI_JSON_STRING_H

#include <stdio.h>

// Writes text to out as a quoted JSON string ("a\"b"): '"' and '\\' escaped, control characters as
// \n, \t, ... or \u00XX; every other byte as it is (UTF-8 passes through).
void json_write_string(FILE* out, const char* text);

#endif
