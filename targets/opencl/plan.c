/* plan.c — the opencl backend's graph plans: buffer slots (graph values and the buffers
 * nodes make for themselves), the kernel launches the op families record at prepare time
 * (with their arguments set once), setup launches and one warm-up execution run at the
 * end of prepare, and the execution of a plan: enqueued only (run), or with a profiling
 * event per command whose device times are summed (run_timed). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ocl.h"

typedef struct plan_node {
    const cc_node *node;
    char note[OCL_NOTE_MAX];
} plan_node;

/* An output buffer no node writes (a graph input or constant passed through, or a value
 * listed twice as an output): copied at the end of every run. */
typedef struct tail_copy {
    int slot, out_index;
} tail_copy;

struct ocl_plan {
    ocl_ctx *c;
    const cc_graph *g;
    cc_tensor *vals;            /* value descriptions (shapes inferred) */
    int n_slots, cap_slots;
    cl_mem *mems;
    unsigned char *owned;       /* released with the plan */
    unsigned char *run_bound;   /* graph inputs/outputs: set at every run */
    ocl_launch **runs;
    int n_runs, cap_runs;
    ocl_launch **setups;
    int n_setups, cap_setups;
    plan_node *nodes;
    int n_nodes;
    int out_slot[CC_MAX_IO];    /* slot bound to outputs[j], -1: tail copy */
    tail_copy tails[CC_MAX_IO];
    int n_tails;
};

static void launch_free(ocl_launch *l)
{
    if (!l) return;
    if (l->kernel) clReleaseKernel(l->kernel);
    free(l);
}

void cc_ocl_release(void *ctx, void *plan)
{
    (void)ctx;
    ocl_plan *p = plan;
    if (!p) return;
    for (int i = 0; i < p->n_runs; i++) launch_free(p->runs[i]);
    for (int i = 0; i < p->n_setups; i++) launch_free(p->setups[i]);
    for (int i = 0; i < p->n_slots; i++)
        if (p->owned[i] && p->mems[i]) clReleaseMemObject(p->mems[i]);
    free(p->runs);
    free(p->setups);
    free(p->mems);
    free(p->owned);
    free(p->run_bound);
    free(p->vals);
    free(p->nodes);
    free(p);
}

static cc_status new_slot(ocl_plan *p, int *slot, cc_err *err)
{
    if (p->n_slots == p->cap_slots) {
        int cap = p->cap_slots ? 2 * p->cap_slots : 16;
        cl_mem *m = realloc(p->mems, (size_t)cap * sizeof *m);
        if (m) p->mems = m;
        unsigned char *o = realloc(p->owned, (size_t)cap);
        if (o) p->owned = o;
        unsigned char *r = realloc(p->run_bound, (size_t)cap);
        if (r) p->run_bound = r;
        if (!m || !o || !r) return cc_err_set(err, CC_ERR_NOMEM, "opencl: out of memory");
        p->cap_slots = cap;
    }
    int s = p->n_slots++;
    p->mems[s] = NULL;
    p->owned[s] = 0;
    p->run_bound[s] = 0;
    *slot = s;
    return CC_OK;
}

static cc_status alloc_slot_buffer(ocl_plan *p, int s, size_t bytes, cc_err *err)
{
    cl_int e = CL_SUCCESS;
    if (bytes > p->c->max_alloc && p->c->max_alloc)
        return cc_err_set(err, CC_ERR_NOMEM, "opencl: a buffer of %zu bytes exceeds the device's largest allocation (%llu)",
                          bytes, (unsigned long long)p->c->max_alloc);
    p->mems[s] = clCreateBuffer(p->c->context, CL_MEM_READ_WRITE, bytes ? bytes : 1, NULL, &e);
    if (!p->mems[s] || e != CL_SUCCESS) {
        p->mems[s] = NULL;
        return cc_ocl_fail(err, e, "clCreateBuffer");
    }
    p->owned[s] = 1;
    return CC_OK;
}

cc_status cc_ocl_scratch(ocl_build *b, size_t bytes, int *slot, cc_err *err)
{
    int s = -1;
    cc_status st = new_slot(b->plan, &s, err);
    if (!st) st = alloc_slot_buffer(b->plan, s, bytes, err);
    if (!st) *slot = s;
    return st;
}

cc_status cc_ocl_const(ocl_build *b, const void *data, size_t bytes, int *slot, cc_err *err)
{
    int s;
    cc_status st = cc_ocl_scratch(b, bytes, &s, err);
    if (st) return st;
    if (bytes) {
        cl_int e = clEnqueueWriteBuffer(b->c->queue, b->plan->mems[s], CL_TRUE, 0, bytes, data, 0, NULL, NULL);
        if (e != CL_SUCCESS) return cc_ocl_fail(err, e, "clEnqueueWriteBuffer");
    }
    *slot = s;
    return CC_OK;
}

static cc_status push_launch(ocl_plan *p, int setup, ocl_launch *l, cc_err *err)
{
    ocl_launch ***list = setup ? &p->setups : &p->runs;
    int *n = setup ? &p->n_setups : &p->n_runs, *cap = setup ? &p->cap_setups : &p->cap_runs;
    if (*n == *cap) {
        int nc = *cap ? 2 * *cap : 16;
        ocl_launch **m = realloc(*list, (size_t)nc * sizeof *m);
        if (!m) return cc_err_set(err, CC_ERR_NOMEM, "opencl: out of memory");
        *list = m;
        *cap = nc;
    }
    (*list)[(*n)++] = l;
    return CC_OK;
}

cc_status cc_ocl_kernel(ocl_build *b, const char *prog, const char *name, int setup, ocl_launch **out,
                        cc_err *err)
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
    st = push_launch(b->plan, setup, l, err);
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
    cc_status st = push_launch(b->plan, 0, l, err);
    if (st) free(l);
    return st;
}

static ocl_arg *next_arg(ocl_launch *l)
{
    /* a kernel with more arguments than OCL_MAX_ARGS is a bug caught at set-argument time */
    static ocl_arg sink;
    return l->n_args < OCL_MAX_ARGS ? &l->args[l->n_args++] : &sink;
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

static int in_list(const int *list, int n, int v)
{
    for (int i = 0; i < n; i++)
        if (list[i] == v) return 1;
    return 0;
}

static cc_status set_args(ocl_plan *p, ocl_launch *l, int run_time, cc_err *err)
{
    if (l->kind != OCL_L_KERNEL) return CC_OK;
    if (l->n_args >= OCL_MAX_ARGS)
        return cc_err_set(err, CC_ERR_INTERNAL, "opencl: kernel %s has too many arguments", l->name);
    for (int i = 0; i < l->n_args; i++) {
        const ocl_arg *a = &l->args[i];
        cl_int e = CL_SUCCESS;
        if (a->kind == OCL_ARG_MEM) {
            if (p->run_bound[a->slot] != run_time) continue;
            e = clSetKernelArg(l->kernel, (cl_uint)i, sizeof(cl_mem), &p->mems[a->slot]);
        } else if (run_time) {
            continue;
        } else if (a->kind == OCL_ARG_INT) {
            e = clSetKernelArg(l->kernel, (cl_uint)i, sizeof(cl_int), &a->i);
        } else {
            e = clSetKernelArg(l->kernel, (cl_uint)i, sizeof(cl_float), &a->f);
        }
        if (e != CL_SUCCESS) {
            char what[96];
            snprintf(what, sizeof what, "clSetKernelArg(%s, %d)", l->name, i);
            return cc_ocl_fail(err, e, what);
        }
    }
    return CC_OK;
}

static cc_status enqueue(ocl_plan *p, ocl_launch *l, cl_event *ev, cc_err *err)
{
    cl_int e;
    if (l->kind == OCL_L_COPY) {
        e = clEnqueueCopyBuffer(p->c->queue, p->mems[l->src], p->mems[l->dst], l->src_off, l->dst_off,
                                l->bytes, 0, NULL, ev);
    } else {
        if (l->gws[0] == 0 || l->gws[1] == 0 || l->gws[2] == 0) return CC_OK; /* empty tensor */
        e = clEnqueueNDRangeKernel(p->c->queue, l->kernel, l->dims, l->goff, l->gws,
                                   l->has_lws ? l->lws : NULL, 0, NULL, ev);
    }
    if (e != CL_SUCCESS) {
        char what[96];
        snprintf(what, sizeof what, "enqueueing %s", l->name);
        return cc_ocl_fail(err, e, what);
    }
    return CC_OK;
}


/* Slots for the graph's values: constants uploaded, inputs and outputs bound at run. */
static cc_status bind_values(ocl_plan *p, const unsigned char *produced, cc_err *err)
{
    const cc_graph *g = p->g;
    cc_status st;
    for (int v = 0; v < g->n_values; v++) {
        int s = -1;
        if ((st = new_slot(p, &s, err))) return st;
        p->vals[v] = g->values[v];
        const cc_tensor *t = &g->values[v];
        if (t->data) {
            size_t bytes = cc_tensor_bytes(t);
            if ((st = alloc_slot_buffer(p, s, bytes, err))) return st;
            if (bytes) {
                cl_int e = clEnqueueWriteBuffer(p->c->queue, p->mems[s], CL_TRUE, 0, bytes, t->data, 0, NULL, NULL);
                if (e != CL_SUCCESS) return cc_ocl_fail(err, e, "uploading a constant");
            }
        } else if (in_list(g->inputs, g->n_inputs, v)) {
            p->run_bound[s] = 1;
        }
    }
    for (int j = 0; j < g->n_outputs; j++) {
        int v = g->outputs[j], first = 1;
        for (int k = 0; k < j; k++) first &= g->outputs[k] != v;
        if (produced[v] && first) {
            p->out_slot[j] = v;
            p->run_bound[v] = 1;
        } else {
            p->out_slot[j] = -1;
            p->tails[p->n_tails].slot = v;
            p->tails[p->n_tails].out_index = j;
            p->n_tails++;
        }
    }
    return CC_OK;
}

static cc_status prepare_node(ocl_plan *p, int n, cc_err *err)
{
    const cc_graph *g = p->g;
    const cc_node *node = &g->nodes[n];
    const cc_tensor *in[CC_MAX_IO];
    cc_tensor out[CC_MAX_IO];
    cc_status st = cc_ocl_node_io(p->vals, node, in, out, err);
    if (st) return st;
    const ocl_op *op = cc_ocl_find_op(node->op->name);
    char reason[256] = "";
    if (cc_ocl_check_node(p->c, op, node, in, out, reason, sizeof reason) != CC_SUPPORT_YES)
        return cc_err_set(err, CC_ERR_UNSUPPORTED, "%s", reason[0] ? reason : "opencl: unsupported node");
    ocl_build b;
    memset(&b, 0, sizeof b);
    b.c = p->c;
    b.plan = p;
    b.node = node;
    for (int i = 0; i < CC_MAX_IO; i++) b.in_slot[i] = b.out_slot[i] = -1;
    for (int i = 0; i < node->n_in; i++) {
        b.in[i] = in[i];
        b.in_slot[i] = node->in[i];
    }
    for (int j = 0; j < node->n_out; j++) {
        int v = node->out[j];
        const cc_tensor *desc = &g->values[v];
        if (p->run_bound[v] &&
            (desc->dtype != out[j].dtype || !cc_shape_equal(&desc->shape, &out[j].shape))) {
            char a[96], c2[96];
            return cc_err_set(err, CC_ERR_ARG, "opencl: graph output value %d is %s:%s, but %s gives %s:%s", v,
                              cc_shape_format(&desc->shape, a, sizeof a), cc_dtype_name(desc->dtype),
                              node->op->name, cc_shape_format(&out[j].shape, c2, sizeof c2),
                              cc_dtype_name(out[j].dtype));
        }
        p->vals[v] = out[j];
        p->vals[v].data = NULL;
        if (!p->run_bound[v] && (st = alloc_slot_buffer(p, v, cc_tensor_bytes(&out[j]), err))) return st;
        b.out[j] = &p->vals[v];
        b.out_slot[j] = v;
    }
    st = op->prepare(&b, err);
    if (st) return st;
    p->nodes[n].node = node;
    snprintf(p->nodes[n].note, sizeof p->nodes[n].note, "%s", b.note);
    p->n_nodes = n + 1;
    return CC_OK;
}

static cc_status execute(ocl_plan *p, void *const *inputs, void *const *outputs, cl_event *evs,
                         int *n_ev, cc_err *err);

/* Runs the plan once on stand-in buffers for the graph's inputs and outputs (filled with
 * 0x01 bytes: no integer division by zero), then waits. Drivers that finish compiling a
 * kernel only when it is first enqueued (PoCL specialises it for the work-group size
 * there, 0.1 to 1 s a kernel) do that now, in prepare, and never in a timed run. */
static cc_status warm_up(ocl_plan *p, cc_err *err)
{
    const cc_graph *g = p->g;
    cl_mem in[CC_MAX_IO] = { 0 }, out[CC_MAX_IO] = { 0 };
    cc_status st = CC_OK;
    cl_int e = CL_SUCCESS;
    const cl_uchar one = 1;
    for (int k = 0; k < g->n_inputs + g->n_outputs && !st; k++) {
        int input = k < g->n_inputs;
        const cc_tensor *t = &p->vals[input ? g->inputs[k] : g->outputs[k - g->n_inputs]];
        size_t bytes = cc_tensor_bytes(t);
        cl_mem m = clCreateBuffer(p->c->context, CL_MEM_READ_WRITE, bytes ? bytes : 1, NULL, &e);
        if (!m || e != CL_SUCCESS) {
            st = cc_ocl_fail(err, e, "clCreateBuffer (warm-up)");
            break;
        }
        if (input) in[k] = m;
        else out[k - g->n_inputs] = m;
        e = clEnqueueFillBuffer(p->c->queue, m, &one, 1, 0, bytes ? bytes : 1, 0, NULL, NULL);
        if (e != CL_SUCCESS) st = cc_ocl_fail(err, e, "clEnqueueFillBuffer (warm-up)");
    }
    if (!st) st = execute(p, (void *const *)in, (void *const *)out, NULL, NULL, err);
    e = clFinish(p->c->queue);
    if (!st && e != CL_SUCCESS) st = cc_ocl_fail(err, e, "clFinish after the warm-up run");
    for (int k = 0; k < CC_MAX_IO; k++) {
        if (in[k]) clReleaseMemObject(in[k]);
        if (out[k]) clReleaseMemObject(out[k]);
    }
    for (int i = 0; i < g->n_inputs; i++) p->mems[g->inputs[i]] = NULL;
    for (int j = 0; j < g->n_outputs; j++)
        if (p->out_slot[j] >= 0) p->mems[p->out_slot[j]] = NULL;
    return st;
}

cc_status cc_ocl_prepare(void *ctx, const cc_graph *g, void **plan, cc_err *err)
{
    ocl_ctx *c = ctx;
    cc_status st;
    unsigned char *produced = NULL;
    ocl_plan *p = calloc(1, sizeof *p);
    if (!p) return cc_err_set(err, CC_ERR_NOMEM, "opencl: out of memory");
    p->c = c;
    p->g = g;
    size_t nv = g->n_values > 0 ? (size_t)g->n_values : 1, nn = g->n_nodes > 0 ? (size_t)g->n_nodes : 1;
    p->vals = calloc(nv, sizeof *p->vals);
    p->nodes = calloc(nn, sizeof *p->nodes);
    produced = calloc(nv, 1);
    if (!p->vals || !p->nodes || !produced) {
        st = cc_err_set(err, CC_ERR_NOMEM, "opencl: out of memory");
        goto fail;
    }
    if ((st = cc_graph_check(g, "opencl", produced, err)) || (st = bind_values(p, produced, err))) goto fail;
    for (int n = 0; n < g->n_nodes; n++)
        if ((st = prepare_node(p, n, err))) goto fail;
    /* Arguments fixed for the plan's lifetime are set once; weight packing runs now. */
    for (int i = 0; i < p->n_setups; i++)
        if ((st = set_args(p, p->setups[i], 0, err)) || (st = enqueue(p, p->setups[i], NULL, err))) goto fail;
    for (int i = 0; i < p->n_runs; i++)
        if ((st = set_args(p, p->runs[i], 0, err))) goto fail;
    if ((st = warm_up(p, err))) goto fail;
    free(produced);
    *plan = p;
    return CC_OK;
fail:
    free(produced);
    cc_ocl_release(ctx, p);
    return st;
}

/* Enqueues one execution; with evs non-NULL every command gets an event there (*n_ev). */
static cc_status execute(ocl_plan *p, void *const *inputs, void *const *outputs, cl_event *evs,
                         int *n_ev, cc_err *err)
{
    const cc_graph *g = p->g;
    cc_status st;
    for (int i = 0; i < g->n_inputs; i++) p->mems[g->inputs[i]] = (cl_mem)inputs[i];
    for (int j = 0; j < g->n_outputs; j++)
        if (p->out_slot[j] >= 0) p->mems[p->out_slot[j]] = (cl_mem)outputs[j];
    for (int i = 0; i < p->n_runs; i++) {
        ocl_launch *l = p->runs[i];
        if ((st = set_args(p, l, 1, err))) return st;
        if ((st = enqueue(p, l, evs ? &evs[*n_ev] : NULL, err))) return st;
        if (evs && (l->kind == OCL_L_COPY || (l->gws[0] && l->gws[1] && l->gws[2]))) (*n_ev)++;
    }
    for (int t = 0; t < p->n_tails; t++) {
        const tail_copy *tc = &p->tails[t];
        size_t bytes = cc_tensor_bytes(&p->vals[tc->slot]);
        if (!bytes) continue;
        cl_int e = clEnqueueCopyBuffer(p->c->queue, p->mems[tc->slot], (cl_mem)outputs[tc->out_index], 0, 0,
                                       bytes, 0, NULL, evs ? &evs[*n_ev] : NULL);
        if (e != CL_SUCCESS) return cc_ocl_fail(err, e, "copying a graph output");
        if (evs) (*n_ev)++;
    }
    return CC_OK;
}

cc_status cc_ocl_run(void *ctx, void *plan, void *const *inputs, void *const *outputs, cc_err *err)
{
    (void)ctx;
    return execute(plan, inputs, outputs, NULL, NULL, err);
}

cc_status cc_ocl_run_timed(void *ctx, void *plan, void *const *inputs, void *const *outputs,
                           double *device_seconds, cc_err *err)
{
    (void)ctx;
    ocl_plan *p = plan;
    int cap = p->n_runs + p->n_tails, n = 0;
    cl_event *evs = calloc((size_t)(cap ? cap : 1), sizeof *evs);
    if (!evs) return cc_err_set(err, CC_ERR_NOMEM, "opencl: out of memory");
    cc_status st = execute(p, inputs, outputs, evs, &n, err);
    cl_int e = clFinish(p->c->queue);
    if (!st && e != CL_SUCCESS) st = cc_ocl_fail(err, e, "clFinish (a kernel failed on the device)");
    double total = 0;
    for (int i = 0; i < n; i++) {
        cl_ulong t0 = 0, t1 = 0;
        cl_int status = CL_COMPLETE;
        clGetEventInfo(evs[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
        if (!st && status < 0) st = cc_ocl_fail(err, status, "a command failed on the device");
        if (!st && ((e = clGetEventProfilingInfo(evs[i], CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL)) ||
                    (e = clGetEventProfilingInfo(evs[i], CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL))))
            st = cc_ocl_fail(err, e, "clGetEventProfilingInfo");
        if (t1 > t0) total += (double)(t1 - t0) * 1e-9;
        clReleaseEvent(evs[i]);
    }
    free(evs);
    if (!st) *device_seconds = total;
    return st;
}

/* Node i of the plan for describe_plan: its op and kernel note. */
static const char *ocl_note(const void *plan, int i, const cc_op_def **op)
{
    const plan_node *pn = &((const ocl_plan *)plan)->nodes[i];
    *op = pn->node->op;
    return pn->note;
}

/* "Conv: im2col+gemm_t64 wg 16x16; Relu: relu_f32 wg 256" with identical entries counted. */
void cc_ocl_describe_plan(void *ctx, void *plan, char *buf, size_t n)
{
    (void)ctx;
    const ocl_plan *p = plan;
    cc_backend_describe_plan(p, p ? p->n_nodes : 0, ocl_note, buf, n);
}

