/* matmul.h — internals shared by the matmul family's two files (matmul.c: Gemm, MatMul;
 * matmul_int.c: MatMulInteger, QLinearMatMul): numpy-matmul shape rules with batch
 * broadcasting. Not a catalog
 * contract: only ops/matmul*.c and their tests include it. */
#ifndef CC_OPS_MATMUL_H
#define CC_OPS_MATMUL_H

#include "op.h"

/* The shape of a numpy matmul a @ b after 1-D promotion (a 1-D a is [1,K], a 1-D b is
 * [K,1]; the promoted dims are dropped from the output). Batch dims broadcast
 * numpy-style; a matrix of a (b) is M*K (K*N) contiguous elements. */
typedef struct cc_matmul_dims {
    int64_t m, n, k;
    int n_batch;                 /* rank of the broadcast batch shape */
    int64_t batch[CC_MAX_RANK];  /* broadcast batch dims */
    int64_t a_step[CC_MAX_RANK]; /* per batch dim: a's matrix-index step, 0 where broadcast */
    int64_t b_step[CC_MAX_RANK];
    int64_t n_mat; /* output matrices (product of batch dims) */
    int a_rank, b_rank;
    cc_shape out; /* output shape */
} cc_matmul_dims;

/* Works out the matmul shape of a @ b. `op` names the op in messages. CC_ERR_ARG (one
 * line) for a scalar operand, mismatched K, batch dims that do not broadcast, or an
 * output over CC_MAX_NUMEL; *d is written only on success. */
cc_status cc_matmul_dims_make(const char *op, const cc_shape *a, const cc_shape *b,
                              cc_matmul_dims *d, cc_err *err);

/* For output matrix t (0 <= t < d->n_mat), the index of the matrix of a and of b that
 * feed it (element offsets are *ai * M*K and *bi * K*N). */
void cc_matmul_batch_index(const cc_matmul_dims *d, int64_t t, int64_t *ai, int64_t *bi);


#endif
