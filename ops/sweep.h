/* sweep.h — an op's cases as data: sweep rows, shape classes and their expansion.
 *
 * An op declares its cases as rows (cc_op_def.sweep). A row names the op's inputs and
 * attributes in case-id syntax, with two additions:
 *
 *   inputs  "x=1x3x8x8,w=4x3x3x3,b=4"   each data input as name=DIMS[:dtype]. The first
 *           input written takes the case dtype unless the row gives one; later inputs
 *           without a dtype take the first's (as in a case id).
 *           "@eltwise"                  a shape class: one case per entry of the class
 *                                       (ops/sweep.c lists the classes). An entry names
 *                                       inputs by name or by position ($0 is the op's
 *                                       input 0) and may carry attributes.
 *           "@conv,-b,w:i8"             after a class: -name drops an input the entry
 *                                       gives, name:dtype changes its dtype (where
 *                                       the entry gives it), name=DIMS
 *                                       adds or replaces one.
 *   attrs   "pads=[1,1,1,1],group=2"    attributes, appended to (and overriding) the
 *                                       class entry's.
 *           "strides=[1,1]|[2,2]"       alternatives: one case per value, and the cross
 *                                       product over every attribute written so.
 *           "w_zp=-/1/2"                spread: the k-th case the row makes takes value
 *                                       k mod n (a covering instead of a product).
 *           "-" as a value              the attribute not given (its default, or absent).
 *   "other8", as a dtype or a value, is the other 8-bit type than the case dtype (i8 in a
 *   u8 case, u8 in an i8 case): mixed-signedness INT8 rows of MatMulInteger and friends.
 *   "dt:V" as a value is a tensor of the case dtype ("value=dt:[2]" in an f16 case is
 *   "value=f16:[2]"): the case dtype of an op without data inputs (ConstantOfShape, Range).
 *
 * Tags say which sweep a case belongs to: the full sweep is every row; the quick sweep (CI)
 * is every row tagged CC_SWEEP_QUICK, and of a class only the entries tagged so. EDGE and
 * MODEL tags mark edge cases (empty, size-1, degenerate attributes) and layers of the
 * reference models; a case's tags are its row's and its entry's. The random mode starts
 * draws from these cases (edge cases more often) and takes its attribute values from them.
 *
 * A row whose expansion is malformed (unknown class, input or attribute, a bad id) is a
 * bug in the catalog: ops/tests/test_catalog.c expands every op's sweep. */
#ifndef CC_SWEEP_H
#define CC_SWEEP_H

#include "op.h"

enum {
    CC_SWEEP_QUICK = 1u << 0, /* in the quick sweep (the CI's) as well as the full one */
    CC_SWEEP_EDGE = 1u << 1,  /* an edge case */
    CC_SWEEP_MODEL = 1u << 2, /* a layer of a reference model (ResNet50, YOLO) */
};

typedef struct cc_sweep_row {
    unsigned tags;      /* CC_SWEEP_* */
    const char *inputs; /* see above */
    const char *attrs;  /* see above; "" or NULL for none */
    unsigned dtypes;    /* case dtypes the row is for (CC_DTYPE_BIT mask); 0: every dtype of the op */
} cc_sweep_row;

/* A named list of entries (rows whose inputs name no class) that rows share. */
typedef struct cc_shape_class {
    const char *name;
    int n;
    const cc_sweep_row *entries;
} cc_shape_class;

/* The shape class `name` (without '@'); NULL if there is none. */
const cc_shape_class *cc_shape_class_find(const char *name);

/* Builds the .sweep/.n_sweep members of a cc_op_def from a static array of rows. */
#define CC_SWEEP(rows) .sweep = (rows), .n_sweep = (int)(sizeof(rows) / sizeof((rows)[0]))

/* Ordering ops' inputs on the wide dtypes (ArgMax, ArgMin, TopK): a generator's draw
 * reaches none of the places where a narrower, signed or float path orders elements wrongly
 * (u32 and u64 come from [0, 1000], f64 from values far apart at f32's precision), so about
 * half of x's elements are replaced by such values, from a small set so that ties are
 * common: for the integers 0, 1, both sides of the top bit (2^(w-1) - 1 and 2^(w-1): the
 * signed type's ends) and the last two (-2 and -1 when signed); for f64 1 + m 2^-40 (m in
 * -2..2, one f32 value). Other dtypes are left as they are. */
void cc_sweep_order_edges(cc_tensor *x, cc_rng *rng);

/* Appends to list the case ids (with tags) of op's sweep for case dtype dt: the quick
 * sweep where quick != 0, else the full one. CC_ERR_INTERNAL naming the op and the row
 * when a row cannot be expanded. */
cc_status cc_sweep_expand(const cc_op_def *op, cc_dtype dt, int quick, cc_case_list *list,
                          cc_err *err);

/* Expands the rows `rows` as if they were op's sweep (the catalog test checks rows this way). */
cc_status cc_sweep_expand_rows(const cc_op_def *op, const cc_sweep_row *rows, int n, cc_dtype dt,
                               int quick, cc_case_list *list, cc_err *err);

#endif
