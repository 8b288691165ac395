#include "json_string.h"

void json_write_string(FILE* out, const char* text) {
	fputc('"', out);
	for (const unsigned char* c = (const unsigned char*)text; *c != '\0'; ++c) {
		switch (*c) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\b': fputs("\\b", out); break;
		case '\f': fputs("\\f", out); break;
		case '\n': fputs("\\n", out); break;
		case '\r': fputs("\\r", out); break;
		case '\t': fputs("\\t", out); break;
		default:
			if (*c < 0x20 || *c == 0x7f) {
				fprintf(out, "\\u%04x", (unsigned)*c);
			} else {
				fputc(*c, out);
			}
		}
	}
	fputc('"', out);
}
