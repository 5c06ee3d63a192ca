/* common.cl - the start of every program of the opencl backend: storage types and their
 * f32 load/store, and the name pasting the template files use.
 *
 * Templates (the other files) are instantiated by the host, which prepends a block of
 * #defines to each copy: S, the storage suffix (f32, f16, bf16, i8, u8, i16, u16, i32, u32,
 * i64, u64, or for copies u8/u16/u32/u64: the element size), and template-specific
 * parameters. Kernel names carry the suffix: KN(relu) is relu_f32 in the f32 copy. Float
 * computation is in float (CT, the compute type): LD loads an element as float, ST rounds
 * a float to the storage type (f16 and bf16 are kept in ushorts and converted here, so no
 * cl_khr_fp16 is needed, rounding to nearest even; 8/32-bit integers: rounded half to even
 * and saturated). The f64 copies, which compute in double, follow this file with fp64.cl;
 * nothing here names that type, so every other program builds on a device without it. */

#define PASTE_(a, b) a##b
#define PASTE(a, b) PASTE_(a, b)
#define KN(base) PASTE(base, PASTE(_, S))
#define TY PASTE(TY_, S)
#define UT PASTE(UT_, S)
#define LD(p, i) PASTE(LD_, S)(p, i)
#define ST(p, i, v) PASTE(ST_, S)(p, i, v)

#define TY_f32 float
#define TY_f16 ushort
#define TY_bf16 ushort
#define TY_i8 char
#define TY_u8 uchar
#define TY_i32 int
#define TY_i64 long
#define TY_u16 ushort
#define TY_u32 uint
#define TY_u64 ulong
#define TY_i16 short

#define SG_i8 1
#define SG_u8 0
#define SG_i16 1
#define SG_u16 0
#define SG_i32 1
#define SG_u32 0
#define SG_i64 1
#define SG_u64 0
#define SIGNED PASTE(SG_, S)

#define UT_i8 uchar
#define UT_u8 uchar
#define UT_i16 ushort
#define UT_u16 ushort
#define UT_i32 uint
#define UT_u32 uint
#define UT_i64 ulong
#define UT_u64 ulong

/* the compute type of the float copies (fp64.cl adds CT_f64) */
#define CT PASTE(CT_, S)
#define CT_f32 float
#define CT_f16 float
#define CT_bf16 float

/* f16 <-> f32 by integer operations, branch-free so that they vectorise (a driver's
 * vload_half/vstore_half_rte can be far slower: about 10x on PoCL). Exact conversion up;
 * down: round to nearest even, subnormals kept, overflow to inf, NaN stays a quiet NaN. */
float f16_to_f32(ushort h)
{
    uint u = h, em = u & 0x7fffu;
    uint norm = (em << 13) + (112u << 23) + (em >= 0x7c00u ? (112u << 23) : 0u); /* inf/NaN: twice */
    uint sub = as_uint((float)em * 0x1p-24f);                                    /* zero, subnormal */
    return as_float(((u & 0x8000u) << 16) | (em < 0x400u ? sub : norm));
}

ushort f32_to_f16(float f)
{
    uint x = as_uint(f), a = x & 0x7fffffffu;
    uint nan = 0x7e00u | ((a & 0x7fffffu) >> 13);
    /* |f| < 2^-14: adding 0.5 leaves a quantum of 2^-24, the f16 subnormal step, so the
     * addition itself rounds to nearest even; the low bits are the f16 significand */
    uint sub = as_uint(as_float(a) + 0.5f) - 0x3f000000u;
    uint norm = (a - (112u << 23) + 0xfffu + ((a >> 13) & 1u)) >> 13;
    uint r = a > 0x7f800000u ? nan : (a >= 0x47800000u ? 0x7c00u : (a < 0x38800000u ? sub : norm));
    return (ushort)(((x >> 16) & 0x8000u) | r);
}

#define F16_TO_F32_V(N)                                                                   \
    PASTE(float, N) PASTE(f16_to_f32_, N)(PASTE(ushort, N) h)                             \
    {                                                                                     \
        PASTE(uint, N) u = PASTE(convert_uint, N)(h), em = u & 0x7fffu;                   \
        PASTE(uint, N) big = (PASTE(uint, N))(112u << 23);                                \
        PASTE(uint, N) norm = (em << 13) + big + select((PASTE(uint, N))(0), big, em >= 0x7c00u); \
        PASTE(uint, N) sub = PASTE(as_uint, N)(PASTE(convert_float, N)(em) * 0x1p-24f);   \
        return PASTE(as_float, N)(((u & 0x8000u) << 16) | select(norm, sub, em < 0x400u)); \
    }
F16_TO_F32_V(8)
F16_TO_F32_V(16)

float bf16_to_f32(ushort h)
{
    return as_float((uint)h << 16);
}

ushort f32_to_bf16(float f)
{
    uint x = as_uint(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return (ushort)((x >> 16) | 0x40u); /* quiet NaN */
    return (ushort)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

#define LD_f32(p, i) ((p)[i])
#define ST_f32(p, i, v) ((p)[i] = (v))
#define LD_f16(p, i) f16_to_f32((p)[i])
#define ST_f16(p, i, v) ((p)[i] = f32_to_f16(v))
#define LD_bf16(p, i) bf16_to_f32((p)[i])
#define ST_bf16(p, i, v) ((p)[i] = f32_to_bf16(v))
#define LD_i8(p, i) ((float)(p)[i])
#define ST_i8(p, i, v) ((p)[i] = convert_char_sat_rte(v))
#define LD_u8(p, i) ((float)(p)[i])
#define ST_u8(p, i, v) ((p)[i] = convert_uchar_sat_rte(v))
#define LD_i32(p, i) ((float)(p)[i])
#define ST_i32(p, i, v) ((p)[i] = convert_int_sat_rte(v))

/* Offsets of output element i in two operands seen through a broadcast: g holds the
 * output dims[rank], then the strides of a[rank] and of b[rank] (0 along broadcast axes). */
void bcast_offsets(int i, int rank, global const int *g, int *ia, int *ib)
{
    if (rank == 1) {
        *ia = i * g[1];
        *ib = i * g[2];
        return;
    }
    int oa = 0, ob = 0;
    for (int d = rank - 1; d >= 0; d--) {
        int dim = g[d];
        int c = i % dim;
        i /= dim;
        oa += c * g[rank + d];
        ob += c * g[2 * rank + d];
    }
    *ia = oa;
    *ib = ob;
}

/* A broadcasting binary kernel KN(NAME)(a, b, y, n, rank, sa, sb, g): y[i] = EXPR of
 * u = LOAD(a, ia) and v = LOAD(b, ib), both of type VT, written with STORE(y, i, value);
 * g and rank describe the broadcast (bcast_offsets), and a rank-1 broadcast (the usual
 * case once dimensions are merged) uses the strides sa, sb alone. The eltwise templates
 * instantiate it. */
#define BINARY_KERNEL(NAME, VT, LOAD, STORE, EXPR)                                        \
    kernel void KN(NAME)(global const TY *a, global const TY *b, global TY *y, int n,     \
                         int rank, int sa, int sb, global const int *g)                   \
    {                                                                                     \
        int i = get_global_id(0);                                                         \
        if (i >= n) return;                                                               \
        int ia = i * sa, ib = i * sb;                                                     \
        if (rank > 1) bcast_offsets(i, rank, g, &ia, &ib);                                \
        VT u = LOAD(a, ia), v = LOAD(b, ib);                                              \
        STORE(y, i, (EXPR));                                                              \
    }

/* 8-wide loads of storage types as float8 (p points at the first element). */
#define VLD8_f32(p) vload8(0, (p))
#define VLD8_f16(p) f16_to_f32_8(vload8(0, (p)))
#define VLD8_bf16(p) as_float8(convert_uint8(vload8(0, (p))) << 16)
#define VLD8(p) PASTE(VLD8_, S)(p)
#define VLD16_f32(p) vload16(0, (p))
#define VLD16_f16(p) f16_to_f32_16(vload16(0, (p)))
#define VLD16_bf16(p) as_float16(convert_uint16(vload16(0, (p))) << 16)
#define VLD16(p) PASTE(VLD16_, S)(p)

/* For the tiled GEMM templates (gemm_tiled.cl, gemm_q8.cl, which define TK, TS and RT and
 * name the work-item's index in its RT x RT group tid): stages one TK x TS slice of an
 * operand in local memory, T[kk][xx] = VALUE for kk < TK, xx < TS, where VALUE may use kk,
 * xx and the global indices gk = k0 + kk and gx = x0 + xx. The group's work-items walk
 * the slice along k when k_fast (the operand is contiguous along k), else along x. */
#define STAGE_TILE(T, k_fast, x0, k0, VALUE)                                              \
    for (int e = tid; e < TK * TS; e += RT * RT) {                                        \
        int kk, xx;                                                                       \
        if (k_fast) {                                                                     \
            kk = e % TK;                                                                  \
            xx = e / TK;                                                                  \
        } else {                                                                          \
            xx = e % TS;                                                                  \
            kk = e / TS;                                                                  \
        }                                                                                 \
        int gx = (x0) + xx, gk = (k0) + kk;                                               \
        T[kk][xx] = VALUE;                                                                \
    }
