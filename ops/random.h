/* random.h — the random mode: valid op cases drawn at random from what each op's sweep
 * and schema allow, and the shrinker that reduces a failing case to a smallest one.
 *
 * A draw starts from one of the op's sweep cases (every dtype, quick and full sweep; a
 * third of the time one tagged as an edge case, ops/sweep.h) and changes it: the case dtype (one of the op's dtypes), dimensions (a value that appears
 * in several places, such as channels shared by x and w, changes everywhere at once so
 * that the relation survives; sometimes one place alone), optional inputs dropped, and
 * attributes (values any sweep row of the op uses, the default, or a neighbour of them:
 * +-1 for integers, other scales for floats). The op's own shape inference then judges
 * the draw (cc_case_reparse): an invalid draw is thrown away and drawn again, so what
 * runs is always a case the schema and the op's constraints accept. Draws are kept small
 * (mem_need within a budget) so that thousands run in minutes on the golden model.
 *
 * Draw i of seed S depends only on (S, i, op): a draw is reproducible on its own, and its
 * case id is its repro line. */
#ifndef CC_RANDOM_H
#define CC_RANDOM_H

#include "case.h"

#define CC_DRAW_MEM_BUDGET (4.0 * 1024 * 1024) /* bytes of mem_need a drawn case may have */

/* The templates and value pools of one op, made once and reused for many draws. */
typedef struct cc_draw_source cc_draw_source;

cc_status cc_draw_source_make(const cc_op_def *op, unsigned dtypes, cc_draw_source **out, cc_err *err);
void cc_draw_source_free(cc_draw_source *s);
/* Number of sweep cases the source draws from (0: the op has none within the dtypes). */
int cc_draw_source_templates(const cc_draw_source *s);

/* Draw `index` of `seed`: a valid case within CC_DRAW_MEM_BUDGET. CC_ERR_ARG when after
 * many tries no valid change was found and no template fits (the op cannot be drawn). */
cc_status cc_case_draw(const cc_draw_source *s, uint64_t seed, uint64_t index, cc_case *out, cc_err *err);

/* Draws n cases over the given ops, round robin (op of draw i is ops[i % n_ops]), each
 * dtype-filtered by `dtypes` (0: all). A case drawn before is drawn again (up to 8 times)
 * so that the cases differ where the op allows it. *out is malloc'd (free()). Ops that
 * cannot be drawn are skipped. */
cc_status cc_case_draw_many(const cc_op_def *const *ops, int n_ops, unsigned dtypes, uint64_t seed,
                            int n, cc_case **out, int *n_out, cc_err *err);

/* The shrinker's next candidates for c: valid cases that are strictly simpler (an
 * attribute back at its default, an optional input dropped, a dimension value made
 * smaller everywhere it appears, or in one place), simplest changes first. Writes at
 * most max into out and returns the count. */
int cc_case_shrink_candidates(const cc_case *c, cc_case *out, int max);

/* A size measure the shrinker decreases: the sum of all dimensions of all present inputs
 * plus the number of attributes away from their defaults (each counted 1) . */
double cc_case_size(const cc_case *c);

#endif
