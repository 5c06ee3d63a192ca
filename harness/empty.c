/* empty.c — placeholder translation unit for a library whose sources are not written yet. */
typedef int cc_empty_unit;
