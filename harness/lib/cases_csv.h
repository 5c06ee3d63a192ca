/* cases_csv.h — case lists from CSV files (shape sweeps such as the layer shapes of a
 * user's own model, in the spirit of benchdnn's batch files), parsed with libcsv.
 *
 * Format: one case id per row, in the first column, or, when the first row is a header
 * naming a column "case", "case_id" or "id" (any case), in that column. A header may also
 * name a column "enabled": a row whose value there is 0, no, false or off is skipped.
 * Every other column is free (a layer name, a note) and ignored. Blank rows and rows whose
 * first cell starts with '#' are skipped. Quoting follows RFC 4180 (case ids contain
 * commas, so quote them: "Conv(x=1x3x8x8:f32,w=4x3x3x3)"). */
#ifndef CC_CASES_CSV_H
#define CC_CASES_CSV_H

#include "../../ops/case.h"

/* Called once per bad row with the row's first line number (1-based) and a one-line
 * reason: an empty case id, a case id that does not parse (the parser's message), or a
 * repeat of an earlier row (that row runs once). */
typedef void (*cc_csv_bad_row_fn)(void *user, int line, const char *message);

/* Reads the case list at path. The good rows become *out (malloc'd, in file order, NULL
 * when *n is 0; caller frees with free()); each bad row is passed to bad (may be NULL)
 * and left out. A file without one good row is still CC_OK with *n == 0. CC_ERR_IO when
 * the file cannot be read, CC_ERR_NOMEM; on error *out and *n are untouched. */
cc_status cc_cases_from_csv(const char *path, cc_case **out, int *n, cc_csv_bad_row_fn bad,
                            void *user, cc_err *err);

#endif
