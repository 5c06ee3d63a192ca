/* plan.c — the opencl backend on the shared planner (../plan.h): its kernel rows (one per
 * op of the family tables; prepare records the node's launches through the family's
 * prepare), the per-node record of launches and the buffers a node made for itself, the
 * memory hooks, the execution of a node's launches (enqueued only, or with a profiling
 * event per command that run_timed sums) and the vtable's plan functions. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl.h"

/* What one node's prepare recorded: its launches, run in order, and its own buffers. */
struct ocl_node {
    ocl_ctx *c;
    ocl_launch **runs;
    int n_runs, cap_runs;
    cl_mem *own;
    int n_own, cap_own;
};

/* ---- the op tables by id ------------------------------------------------------------------- */

static const ocl_family *const families[] = {
    &cc_ocl_family_conv,  &cc_ocl_family_matmul, &cc_ocl_family_eltwise, &cc_ocl_family_pool,
    &cc_ocl_family_reduce, &cc_ocl_family_quant,  &cc_ocl_family_shape,   &cc_ocl_family_resize,
    &cc_ocl_family_cast,
};
#define N_FAMILIES ((int)(sizeof families / sizeof families[0]))

/* ---- the dtypes of target ABI 8 ----------------------------------------------------------- *
 *
 * A node that reads or writes f64, i16, u16, u32 or u64 runs only on an op listed here; the
 * op's own supports() still decides which of these dtypes it takes, and declines f64 it
 * would compute on a device without cl_khr_fp64 (cc_ocl_fp64). Every other op declines
 * such a node with the op and the dtype ("opencl has no u32 kernel for Conv"): a
 * whitelist, so an op added later is declined until someone has looked at its kernels. */
static const cc_op_id wide_ops[] = {
    /* elements moved by their size (shape.c: copies of 1, 2, 4 or 8-byte words) */
    CC_OP_ID_Identity, CC_OP_ID_Dropout, CC_OP_ID_Flatten, CC_OP_ID_Reshape, CC_OP_ID_Squeeze,
    CC_OP_ID_Unsqueeze, CC_OP_ID_Transpose, CC_OP_ID_Concat, CC_OP_ID_Split, CC_OP_ID_Slice,
    CC_OP_ID_Expand, CC_OP_ID_Tile, CC_OP_ID_Gather, CC_OP_ID_GatherElements, CC_OP_ID_GatherND,
    CC_OP_ID_DepthToSpace, CC_OP_ID_SpaceToDepth, CC_OP_ID_Trilu, CC_OP_ID_Pad, CC_OP_ID_OneHot,
    CC_OP_ID_ReverseSequence, CC_OP_ID_Shape, CC_OP_ID_Size,
    /* Where: the select of eltwise_logic.cl's program of the element's size (eltwise.c) */
    CC_OP_ID_Where,
    /* values made on the host at prepare by the shared lowering (cc_store: the golden's;
     * Range's f64 in double, i16 in 64 bits stored wrapped) */
    CC_OP_ID_EyeLike, CC_OP_ID_ConstantOfShape, CC_OP_ID_Range,
    /* every pair of dtypes (cast.c: kernels/cast.cl, cast_f64.cl) */
    CC_OP_ID_Cast, CC_OP_ID_CastLike,
    /* eltwise.c: integers in their own type (eltwise_int.cl, eltwise_logic.cl), f64 in
     * double (eltwise_f64.cl) */
    CC_OP_ID_Min, CC_OP_ID_Max, CC_OP_ID_Sum, CC_OP_ID_Mean, CC_OP_ID_Pow, CC_OP_ID_PRelu, CC_OP_ID_Mod,
    CC_OP_ID_BitShift,
    /* running sums and Scatter's reductions (axis.cl: integers in 64 bits, wrapping; f64 in
     * double), Einsum (einsum.cl, likewise), the Reduce* ops on f64 in double (reduce.cl) */
    CC_OP_ID_CumSum, CC_OP_ID_ScatterND, CC_OP_ID_ScatterElements, CC_OP_ID_Einsum,
    /* ArgMax, ArgMin and TopK (axis.cl: integers compared in their own type, unsigned ones
     * unsigned; f64 in double; TopK's values copied as stored) */
    CC_OP_ID_ArgMax, CC_OP_ID_ArgMin, CC_OP_ID_TopK,
    CC_OP_ID_ReduceMean, CC_OP_ID_ReduceMax, CC_OP_ID_ReduceMin, CC_OP_ID_ReduceSum, CC_OP_ID_ReduceProd,
    CC_OP_ID_ReduceL1, CC_OP_ID_ReduceL2, CC_OP_ID_ReduceLogSum, CC_OP_ID_ReduceLogSumExp,
    CC_OP_ID_ReduceSumSquare,
    /* Gemm and MatMul in f64: gemm_naive.cl's f64 copy, accumulating in double (matmul.c) */
    CC_OP_ID_Gemm, CC_OP_ID_MatMul,
    /* Resize in nearest mode, elements moved as words of their size (copy.cl's copy_taps;
     * resize.c declines linear and cubic for these dtypes) */
    CC_OP_ID_Resize,
};

static unsigned char wide_listed[CC_OP_ID_COUNT];


static const ocl_op *op_by_id[CC_OP_ID_COUNT];
static cc_kernel rows[CC_OP_ID_COUNT];
static cc_kernel_table kernel_table;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;
static cc_status table_status;
static cc_err table_err;

const ocl_op *cc_ocl_find_op(cc_op_id id)
{
    return (int)id >= 0 && id < CC_OP_ID_COUNT ? op_by_id[id] : NULL;
}

static cc_support node_supports(void *ctx, const cc_node *node, const cc_tensor *const *in,
                                const cc_tensor *out, char *reason, size_t n);
static cc_status node_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                              const cc_tensor *out, void **state, cc_err *err);
static cc_status node_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                          cc_tensor *out, void *state, cc_err *err);
static void node_release(void *state);

static void build_table(void)
{
    int n = 0;
    for (int f = 0; f < N_FAMILIES; f++)
        for (int i = 0; i < families[f]->n; i++) {
            const ocl_op *op = &families[f]->ops[i];
            if ((int)op->op < 0 || op->op >= CC_OP_ID_COUNT || n == CC_OP_ID_COUNT) {
                table_status = cc_err_set(&table_err, CC_ERR_INTERNAL, "opencl: op %d of family %d has no id", i, f);
                return;
            }
            op_by_id[op->op] = op;
            rows[n++] = (cc_kernel){ .op = op->op, .supports = node_supports, .prepare = node_prepare,
                                     .release = node_release, .run = node_run };
        }
    for (size_t i = 0; i < sizeof wide_ops / sizeof wide_ops[0]; i++) {
        cc_op_id id = wide_ops[i];
        if (!op_by_id[id] || wide_listed[id]) {
            table_status = cc_err_set(&table_err, CC_ERR_INTERNAL, "opencl: %s is listed for the wide dtypes %s",
                                      cc_op_info_of(id)->name, wide_listed[id] ? "twice" : "without a kernel");
            return;
        }
        wide_listed[id] = 1;
    }
    cc_kernel_list list = { .n = n, .kernels = rows };
    const cc_kernel_list *lists[] = { &list };
    table_status = cc_kernel_table_build(&kernel_table, lists, 1, "opencl", &table_err);
}

cc_status cc_ocl_tables(cc_err *err)
{
    pthread_once(&table_once, build_table);
    if (table_status) *err = table_err;
    return table_status;
}

/* ---- recording (the family files' side) ----------------------------------------------------- */

static void launch_free(ocl_launch *l)
{
    if (!l) return;
    if (l->kernel) clReleaseKernel(l->kernel);
    free(l);
}

static void node_release(void *state)
{
    ocl_node *r = state;
    if (!r) return;
    for (int i = 0; i < r->n_runs; i++) launch_free(r->runs[i]);
    for (int i = 0; i < r->n_own; i++)
        if (r->own[i]) clReleaseMemObject(r->own[i]);
    free(r->runs);
    free(r->own);
    free(r);
}

cc_status cc_ocl_scratch(ocl_build *b, size_t bytes, int *slot, cc_err *err)
{
    ocl_node *r = b->rec;
    if (bytes > b->c->max_alloc && b->c->max_alloc)
        return cc_err_set(err, CC_ERR_NOMEM,
                          "opencl: a buffer of %zu bytes exceeds the device's largest allocation (%llu)", bytes,
                          (unsigned long long)b->c->max_alloc);
    if (r->n_own == r->cap_own) {
        int cap = r->cap_own ? 2 * r->cap_own : 4;
        cl_mem *m = realloc(r->own, (size_t)cap * sizeof *m);
        if (!m) return cc_err_set(err, CC_ERR_NOMEM, "opencl: out of memory");
        r->own = m;
        r->cap_own = cap;
    }
    cl_int e = CL_SUCCESS;
    cl_mem m = clCreateBuffer(b->c->context, CL_MEM_READ_WRITE, bytes ? bytes : 1, NULL, &e);
    if (!m || e != CL_SUCCESS) return cc_ocl_fail(err, e, "clCreateBuffer");
    r->own[r->n_own] = m;
    *slot = OCL_SLOT_OWN + r->n_own++;
    return CC_OK;
}

cc_status cc_ocl_const(ocl_build *b, const void *data, size_t bytes, int *slot, cc_err *err)
{
    int s = -1;
    cc_status st = cc_ocl_scratch(b, bytes, &s, err);
    if (st) return st;
    if (bytes) {
        cl_mem m = b->rec->own[s - OCL_SLOT_OWN];
        cl_int e = clEnqueueWriteBuffer(b->c->queue, m, CL_TRUE, 0, bytes, data, 0, NULL, NULL);
        if (e != CL_SUCCESS) return cc_ocl_fail(err, e, "clEnqueueWriteBuffer");
    }
    *slot = s;
    return CC_OK;
}

static cc_status push_launch(ocl_node *r, ocl_launch *l, cc_err *err)
{
    if (r->n_runs == r->cap_runs) {
        int cap = r->cap_runs ? 2 * r->cap_runs : 4;
        ocl_launch **m = realloc(r->runs, (size_t)cap * sizeof *m);
        if (!m) return cc_err_set(err, CC_ERR_NOMEM, "opencl: out of memory");
        r->runs = m;
        r->cap_runs = cap;
    }
    r->runs[r->n_runs++] = l;
    return CC_OK;
}

cc_status cc_ocl_kernel(ocl_build *b, const char *prog, const char *name, ocl_launch **out, cc_err *err)
{
    cl_program program;
    cc_status st = cc_ocl_program(b->c, prog, &program, err);
    if (st) return st;
    ocl_launch *l = calloc(1, sizeof *l);
    if (!l) return cc_err_set(err, CC_ERR_NOMEM, "opencl: out of memory");
    l->kind = OCL_L_KERNEL;
    snprintf(l->name, sizeof l->name, "%s", name);
    l->dims = 1;
    cl_int e = CL_SUCCESS;
    l->kernel = clCreateKernel(program, name, &e);
    if (!l->kernel || e != CL_SUCCESS) {
        free(l);
        char what[96];
        snprintf(what, sizeof what, "clCreateKernel(%s)", name);
        return cc_ocl_fail(err, e, what);
    }
    st = push_launch(b->rec, l, err);
    if (st) {
        launch_free(l);
        return st;
    }
    *out = l;
    return CC_OK;
}

cc_status cc_ocl_copy(ocl_build *b, int src, size_t src_off, int dst, size_t dst_off, size_t bytes,
                      cc_err *err)
{
    if (!bytes) return CC_OK;
    ocl_launch *l = calloc(1, sizeof *l);
    if (!l) return cc_err_set(err, CC_ERR_NOMEM, "opencl: out of memory");
    l->kind = OCL_L_COPY;
    snprintf(l->name, sizeof l->name, "copy");
    l->src = src;
    l->dst = dst;
    l->src_off = src_off;
    l->dst_off = dst_off;
    l->bytes = bytes;
    cc_status st = push_launch(b->rec, l, err);
    if (st) free(l);
    return st;
}

static ocl_arg *next_arg(ocl_launch *l)
{
    /* a kernel with more arguments than OCL_MAX_ARGS is a bug caught when the scalars are set */
    static _Thread_local ocl_arg sink;
    if (l->n_args < OCL_MAX_ARGS) return &l->args[l->n_args++];
    l->n_args = OCL_MAX_ARGS + 1;
    return &sink;
}

void cc_ocl_arg_mem(ocl_launch *l, int slot)
{
    ocl_arg *a = next_arg(l);
    a->kind = OCL_ARG_MEM;
    a->slot = slot;
}

void cc_ocl_arg_int(ocl_launch *l, int64_t v)
{
    ocl_arg *a = next_arg(l);
    a->kind = OCL_ARG_INT;
    a->i = (cl_int)v;
}

void cc_ocl_arg_float(ocl_launch *l, double v)
{
    ocl_arg *a = next_arg(l);
    a->kind = OCL_ARG_FLOAT;
    a->f = (cl_float)v;
}

size_t cc_ocl_wg_limit(ocl_build *b, const ocl_launch *l, size_t want)
{
    size_t max = b->c->max_wg ? b->c->max_wg : 1;
    size_t k = 0;
    if (l->kernel &&
        clGetKernelWorkGroupInfo(l->kernel, b->c->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof k, &k, NULL) ==
            CL_SUCCESS &&
        k && k < max)
        max = k;
    size_t w = 1;
    while (w * 2 <= want && w * 2 <= max) w *= 2;
    return w;
}

size_t cc_ocl_kernel_max_wg(ocl_build *b, const char *prog, const char *name)
{
    cl_program program;
    cc_err e;
    if (cc_ocl_program(b->c, prog, &program, &e)) return 0;
    cl_int ce = CL_SUCCESS;
    cl_kernel k = clCreateKernel(program, name, &ce);
    if (!k || ce != CL_SUCCESS) return 0;
    size_t wg = 0;
    if (clGetKernelWorkGroupInfo(k, b->c->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL) != CL_SUCCESS)
        wg = 0;
    clReleaseKernel(k);
    return wg;
}

void cc_ocl_range1(ocl_launch *l, size_t n, size_t lws)
{
    size_t g[1] = { n }, w[1] = { lws ? lws : 1 };
    cc_ocl_range(l, 1, g, w);
}

void cc_ocl_range(ocl_launch *l, cl_uint dims, const size_t *gws, const size_t *lws)
{
    l->dims = dims;
    l->has_lws = lws != NULL;
    for (cl_uint d = 0; d < 3; d++) {
        l->gws[d] = d < dims ? gws[d] : 1;
        l->lws[d] = d < dims && lws ? lws[d] : 1;
        if (l->has_lws && l->lws[d] && l->gws[d] % l->lws[d])
            l->gws[d] += l->lws[d] - l->gws[d] % l->lws[d];
    }
}

void cc_ocl_note(ocl_build *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->note, sizeof b->note, fmt, ap);
    va_end(ap);
}

void cc_ocl_note_append(ocl_build *b, const char *fmt, ...)
{
    size_t len = strlen(b->note);
    if (len + 1 >= sizeof b->note) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->note + len, sizeof b->note - len, fmt, ap);
    va_end(ap);
}

/* ---- the kernel rows -------------------------------------------------------------------------- */

cc_support cc_ocl_check_node(ocl_ctx *c, const ocl_op *op, const cc_node *node, const cc_tensor *const *in,
                              const cc_tensor *out, char *reason, size_t n)
{
    for (int i = 0; i < node->n_in; i++)
        if (in[i] && !cc_ocl_fits_int(in[i])) {
            snprintf(reason, n, "opencl: input %d has 2^31 or more elements (kernels index with int32)", i);
            return CC_SUPPORT_NO;
        }
    for (int j = 0; j < node->n_out; j++)
        if (!cc_ocl_fits_int(&out[j])) {
            snprintf(reason, n, "opencl: output %d has 2^31 or more elements (kernels index with int32)", j);
            return CC_SUPPORT_NO;
        }
    cc_dtype d;
    if (cc_backend_node_wide(node, in, out, &d) && !wide_listed[node->op->id]) {
        snprintf(reason, n, "opencl has no %s kernel for %s", cc_dtype_name(d), node->op->name);
        return CC_SUPPORT_NO;
    }
    return op->supports(c, node, in, out, reason, n);
}

static cc_support node_supports(void *ctx, const cc_node *node, const cc_tensor *const *in,
                                const cc_tensor *out, char *reason, size_t n)
{
    return cc_ocl_check_node(ctx, cc_ocl_find_op(node->op->id), node, in, out, reason, n);
}

/* Sets the launch's scalar arguments (once: they hold for the plan's lifetime). */
static cc_status set_scalars(ocl_launch *l, cc_err *err)
{
    if (l->kind != OCL_L_KERNEL) return CC_OK;
    if (l->n_args > OCL_MAX_ARGS)
        return cc_err_set(err, CC_ERR_INTERNAL, "opencl: kernel %s has too many arguments", l->name);
    for (int i = 0; i < l->n_args; i++) {
        const ocl_arg *a = &l->args[i];
        cl_int e = CL_SUCCESS;
        if (a->kind == OCL_ARG_INT) e = clSetKernelArg(l->kernel, (cl_uint)i, sizeof(cl_int), &a->i);
        else if (a->kind == OCL_ARG_FLOAT) e = clSetKernelArg(l->kernel, (cl_uint)i, sizeof(cl_float), &a->f);
        if (e != CL_SUCCESS) {
            char what[96];
            snprintf(what, sizeof what, "clSetKernelArg(%s, %d)", l->name, i);
            return cc_ocl_fail(err, e, what);
        }
    }
    return CC_OK;
}

static cc_status node_prepare(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                              const cc_tensor *out, void **state, cc_err *err)
{
    ocl_ctx *c = ctx;
    ocl_node *r = calloc(1, sizeof *r);
    if (!r) return cc_err_set(err, CC_ERR_NOMEM, "opencl: out of memory");
    r->c = c;
    ocl_build b;
    memset(&b, 0, sizeof b);
    b.c = c;
    b.rec = r;
    b.node = node;
    for (int i = 0; i < CC_MAX_IO; i++) b.in_slot[i] = b.out_slot[i] = -1;
    for (int i = 0; i < node->n_in; i++) {
        b.in[i] = in[i];
        b.in_slot[i] = in[i] ? OCL_SLOT_IN + i : -1;
    }
    for (int j = 0; j < n_out; j++) {
        b.out[j] = &out[j];
        b.out_slot[j] = OCL_SLOT_OUT + j;
    }
    cc_status st = cc_ocl_find_op(node->op->id)->prepare(&b, err);
    for (int i = 0; i < r->n_runs && !st; i++) st = set_scalars(r->runs[i], err);
    if (st) {
        node_release(r);
        return st;
    }
    cc_backend_note("%s", b.note);
    *state = r;
    return CC_OK;
}

/* The buffer of a slot in one run of the node. */
static cl_mem slot_mem(const ocl_node *r, const cc_tensor *const *in, const cc_tensor *out, int slot)
{
    if (slot >= OCL_SLOT_OWN) return r->own[slot - OCL_SLOT_OWN];
    if (slot >= OCL_SLOT_OUT) return (cl_mem)out[slot - OCL_SLOT_OUT].data;
    return in[slot] ? (cl_mem)in[slot]->data : NULL;
}

/* The event of the next command when run_timed collects them, else NULL. */
static cl_event *next_event(ocl_ctx *c)
{
    if (!c->collect) return NULL;
    if (c->n_evs == c->cap_evs) {
        int cap = c->cap_evs ? 2 * c->cap_evs : 64;
        cl_event *m = realloc(c->evs, (size_t)cap * sizeof *m);
        if (!m) return NULL; /* the command runs untimed; run_timed reports it */
        c->evs = m;
        c->cap_evs = cap;
    }
    return &c->evs[c->n_evs];
}

static cc_status node_run(void *ctx, const cc_node *node, const cc_tensor *const *in, int n_out,
                          cc_tensor *out, void *state, cc_err *err)
{
    (void)node;
    (void)n_out;
    ocl_ctx *c = ctx;
    ocl_node *r = state;
    for (int k = 0; k < r->n_runs; k++) {
        ocl_launch *l = r->runs[k];
        cl_int e;
        cl_event *ev = next_event(c);
        if (c->collect && !ev) c->lost_events = 1;
        if (l->kind == OCL_L_COPY) {
            e = clEnqueueCopyBuffer(c->queue, slot_mem(r, in, out, l->src), slot_mem(r, in, out, l->dst),
                                    l->src_off, l->dst_off, l->bytes, 0, NULL, ev);
        } else {
            if (l->gws[0] == 0 || l->gws[1] == 0 || l->gws[2] == 0) continue; /* empty tensor */
            for (int i = 0; i < l->n_args; i++) {
                ocl_arg *a = &l->args[i];
                if (a->kind != OCL_ARG_MEM) continue;
                /* set at every run: graph inputs and outputs are bound anew each time */
                cl_mem m = slot_mem(r, in, out, a->slot);
                if ((e = clSetKernelArg(l->kernel, (cl_uint)i, sizeof(cl_mem), &m)) != CL_SUCCESS) {
                    char what[96];
                    snprintf(what, sizeof what, "clSetKernelArg(%s, %d)", l->name, i);
                    return cc_ocl_fail(err, e, what);
                }
            }
            e = clEnqueueNDRangeKernel(c->queue, l->kernel, l->dims, l->goff, l->gws, l->has_lws ? l->lws : NULL,
                                       0, NULL, ev);
        }
        if (e != CL_SUCCESS) {
            char what[96];
            snprintf(what, sizeof what, "enqueueing %s", l->name);
            return cc_ocl_fail(err, e, what);
        }
        if (ev) c->n_evs++;
    }
    return CC_OK;
}

/* ---- the planner's hooks and the vtable's plan functions ------------------------------------ */

static cc_status ocl_copy(void *ctx, void *dst, const void *src, size_t bytes, cc_err *err)
{
    ocl_ctx *c = ctx;
    cl_event *ev = next_event(c);
    if (c->collect && !ev) c->lost_events = 1;
    cl_int e = clEnqueueCopyBuffer(c->queue, (cl_mem)src, (cl_mem)dst, 0, 0, bytes, 0, NULL, ev);
    if (e != CL_SUCCESS) return cc_ocl_fail(err, e, "copying a graph output");
    if (ev) c->n_evs++;
    return CC_OK;
}

static const cc_plan_backend planner = {
    .name = "opencl",
    .kernels = &kernel_table,
    .host_memory = 0,
    .warm_up = 1, /* PoCL specialises a kernel for its work-group size at first enqueue */
    .alloc = cc_ocl_buffer_alloc,
    .free = cc_ocl_buffer_free,
    .upload = cc_ocl_upload,
    .copy = ocl_copy,
    .sync = cc_ocl_sync,
};

CC_PLAN_VTABLE_FUNCTIONS(, cc_ocl, planner)

cc_status cc_ocl_run_timed(void *ctx, void *plan, void *const *inputs, void *const *outputs,
                           double *device_seconds, cc_err *err)
{
    ocl_ctx *c = ctx;
    c->collect = 1;
    c->n_evs = 0;
    c->lost_events = 0;
    cc_status st = cc_plan_run(plan, inputs, outputs, err);
    c->collect = 0;
    cl_int e = clFinish(c->queue);
    if (!st && e != CL_SUCCESS) st = cc_ocl_fail(err, e, "clFinish (a kernel failed on the device)");
    if (!st && c->lost_events) st = cc_err_set(err, CC_ERR_NOMEM, "opencl: out of memory (profiling events)");
    double total = 0;
    for (int i = 0; i < c->n_evs; i++) {
        cl_ulong t0 = 0, t1 = 0;
        cl_int status = CL_COMPLETE;
        clGetEventInfo(c->evs[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
        if (!st && status < 0) st = cc_ocl_fail(err, status, "a command failed on the device");
        if (!st && ((e = clGetEventProfilingInfo(c->evs[i], CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL)) ||
                    (e = clGetEventProfilingInfo(c->evs[i], CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL))))
            st = cc_ocl_fail(err, e, "clGetEventProfilingInfo");
        if (t1 > t0) total += (double)(t1 - t0) * 1e-9;
        clReleaseEvent(c->evs[i]);
    }
    c->n_evs = 0;
    if (!st) *device_seconds = total;
    return st;
}
