#include "TileAttentionF32.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <vector>

namespace pl::tilesparse {

namespace {

// Hand-written kernel (no Eigen): the decode attention is a chain of two skinny products per key
// chunk with a softmax in between; fusing them keeps the chunk in cache (one DRAM read of K/V)
// and Eigen has no fused form. GCC/Clang vector extensions give 8-wide float vectors that compile
// to AVX2+FMA in the function compiled for that target and to SSE pairs in the baseline one; the
// body is one always-inlined template so both versions are the same code (dispatch by CPU
// features at run time, not by CPU model as target_clones("arch=...") would).
typedef float v8f __attribute__((vector_size(32)));
typedef int v8i __attribute__((vector_size(32)));

constexpr int kChunk = 64;   // keys per chunk: scores, softmax and the V pass while it is in cache
constexpr int kMaxRows = 64; // rows processed together (work buffers)
constexpr int kRowBlock = 4; // register block: rows
constexpr int kKeyBlock = 3; // register block: keys in the score pass (12 accumulators)

#define TS_INLINE inline __attribute__((always_inline))

TS_INLINE v8f load8(const float* p) {
    v8f v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
TS_INLINE void store8(float* p, v8f v) {
    std::memcpy(p, &v, sizeof v);
}
TS_INLINE v8f splat(float x) {
    return v8f{} + x; // scalar operand: a broadcast
}
TS_INLINE float hsum(v8f v) {
    return ((v[0] + v[4]) + (v[1] + v[5])) + ((v[2] + v[6]) + (v[3] + v[7]));
}
TS_INLINE v8f maxv(v8f a, v8f b) {
    const v8i m = a < b; // all-ones where b is larger
    return v8f(((v8i)a & ~m) | ((v8i)b & m));
}

/// exp(x) for x <= 0: Cephes' expf range reduction and polynomial (relative error ~2e-7);
/// x below -87 is clamped (exp(-87) ~ 1.6e-38, far below any weight that matters).
TS_INLINE v8f expNeg(v8f x) {
    x = maxv(x, splat(-87.0f));
    const v8f magic = splat(12582912.0f); // 1.5 * 2^23: adding it rounds to an integer
    const v8f n = (x * splat(1.44269504088896341f) + magic) - magic;
    const v8f r = x - n * splat(0.693359375f) + n * splat(2.12194440e-4f);
    v8f p = splat(1.9875691500e-4f);
    p = p * r + splat(1.3981999507e-3f);
    p = p * r + splat(8.3334519073e-3f);
    p = p * r + splat(4.1665795894e-2f);
    p = p * r + splat(1.6666665459e-1f);
    p = p * r + splat(5.0000001201e-1f);
    const v8f y = p * r * r + r + splat(1.0f);
    const v8i e = (__builtin_convertvector(n, v8i) + 127) << 23;
    return y * (v8f)e;
}

struct Work {
    std::vector<float> S, acc, m, l, alpha;
    explicit Work(int dv)
        : S(size_t(kMaxRows) * kChunk), acc(size_t(kMaxRows) * size_t(dv)), m(kMaxRows), l(kMaxRows),
          alpha(kMaxRows) {}
};

/// Attention of rows r0 .. r0 + rn (rn <= kMaxRows) over the key spans [begin, end) (pairs),
/// written to out (rn x dv).
template <int Isa>
TS_INLINE void attendRowsBody(const F32Attention& a, int r0, int rn, const int* spans, int nSpans,
                              float scale, Work& w, float* out) {
    const int dk = a.dk, dv = a.dv;
    std::fill(w.acc.begin(), w.acc.begin() + ptrdiff_t(rn) * dv, 0.0f);
    std::fill(w.m.begin(), w.m.begin() + rn, -FLT_MAX);
    std::fill(w.l.begin(), w.l.begin() + rn, 0.0f);
    float* S = w.S.data();
    for (int sp = 0; sp < nSpans; ++sp) {
        for (int k0 = spans[2 * sp]; k0 < spans[2 * sp + 1]; k0 += kChunk) {
            const int nk = std::min(kChunk, spans[2 * sp + 1] - k0);
            // Scores: blocks of 4 rows x 2 keys, 8-wide over d (clamped duplicates are not stored).
            for (int rb = 0; rb < rn; rb += kRowBlock) {
                const float* q[kRowBlock];
                for (int i = 0; i < kRowBlock; ++i)
                    q[i] = a.Q + size_t(r0 + std::min(rb + i, rn - 1)) * size_t(dk);
                for (int j0 = 0; j0 < nk; j0 += kKeyBlock) {
                    const float* k[kKeyBlock];
                    for (int j = 0; j < kKeyBlock; ++j)
                        k[j] = a.K + size_t(k0 + std::min(j0 + j, nk - 1)) * size_t(dk);
                    v8f s[kRowBlock][kKeyBlock] = {};
                    int c = 0;
                    for (; c + 8 <= dk; c += 8) {
                        const v8f kv0 = load8(k[0] + c), kv1 = load8(k[1] + c), kv2 = load8(k[2] + c);
                        for (int i = 0; i < kRowBlock; ++i) {
                            const v8f qv = load8(q[i] + c);
                            s[i][0] += qv * kv0;
                            s[i][1] += qv * kv1;
                            s[i][2] += qv * kv2;
                        }
                    }
                    for (int i = 0; i < kRowBlock && rb + i < rn; ++i)
                        for (int j = 0; j < kKeyBlock && j0 + j < nk; ++j) {
                            float t = hsum(s[i][j]);
                            for (int cc = c; cc < dk; ++cc)
                                t += q[i][cc] * k[j][cc];
                            S[(rb + i) * kChunk + j0 + j] = t * scale;
                        }
                }
            }
            // Running-max softmax per row.
            for (int i = 0; i < rn; ++i) {
                float* row = S + i * kChunk;
                float mx = w.m[size_t(i)];
                for (int j = 0; j < nk; ++j)
                    mx = std::max(mx, row[j]);
                for (int j = nk; j < kChunk; ++j)
                    row[j] = mx; // padding, zeroed below
                const v8f mv = splat(mx);
                v8f sum = splat(0.0f);
                for (int j = 0; j < kChunk; j += 8) {
                    const v8f p = expNeg(load8(row + j) - mv);
                    store8(row + j, p);
                    sum += p;
                }
                float total = hsum(sum);
                for (int j = nk; j < kChunk; ++j) {
                    total -= row[j];
                    row[j] = 0.0f;
                }
                const float al = w.m[size_t(i)] == -FLT_MAX ? 0.0f : std::exp(w.m[size_t(i)] - mx);
                w.alpha[size_t(i)] = al;
                w.m[size_t(i)] = mx;
                w.l[size_t(i)] = w.l[size_t(i)] * al + total;
            }
            // Weighted V sum: blocks of 4 rows x 16 columns, the chunk's V rows streamed from cache.
            for (int rb = 0; rb < rn; rb += kRowBlock) {
                const float* p[kRowBlock];
                for (int i = 0; i < kRowBlock; ++i)
                    p[i] = S + std::min(rb + i, rn - 1) * kChunk;
                const int nr = std::min(kRowBlock, rn - rb);
                // 4 rows x 24 columns (12 accumulators), then 4 x 8, then scalar columns.
                int c0 = 0;
                for (; c0 + 24 <= dv; c0 += 24) {
                    v8f o[kRowBlock][3] = {};
                    for (int j = 0; j < nk; ++j) {
                        const float* vr = a.V + size_t(k0 + j) * size_t(a.ldv) + c0;
                        const v8f v0 = load8(vr), v1 = load8(vr + 8), v2 = load8(vr + 16);
                        for (int i = 0; i < kRowBlock; ++i) {
                            const v8f pj = splat(p[i][j]);
                            o[i][0] += pj * v0;
                            o[i][1] += pj * v1;
                            o[i][2] += pj * v2;
                        }
                    }
                    for (int i = 0; i < nr; ++i) {
                        float* accRow = w.acc.data() + size_t(rb + i) * size_t(dv) + c0;
                        const v8f al = splat(w.alpha[size_t(rb + i)]);
                        for (int t = 0; t < 3; ++t)
                            store8(accRow + 8 * t, load8(accRow + 8 * t) * al + o[i][t]);
                    }
                }
                for (; c0 + 8 <= dv; c0 += 8) {
                    v8f o[kRowBlock] = {};
                    for (int j = 0; j < nk; ++j) {
                        const v8f v0 = load8(a.V + size_t(k0 + j) * size_t(a.ldv) + c0);
                        for (int i = 0; i < kRowBlock; ++i)
                            o[i] += splat(p[i][j]) * v0;
                    }
                    for (int i = 0; i < nr; ++i) {
                        float* accRow = w.acc.data() + size_t(rb + i) * size_t(dv) + c0;
                        store8(accRow, load8(accRow) * splat(w.alpha[size_t(rb + i)]) + o[i]);
                    }
                }
                for (int c = c0; c < dv; ++c)
                    for (int i = 0; i < nr; ++i) {
                        float t = 0;
                        for (int j = 0; j < nk; ++j)
                            t += p[i][j] * a.V[size_t(k0 + j) * size_t(a.ldv) + c];
                        float& accv = w.acc[size_t(rb + i) * size_t(dv) + c];
                        accv = accv * w.alpha[size_t(rb + i)] + t;
                    }
            }
        }
    }
    for (int i = 0; i < rn; ++i) {
        const float inv = w.l[size_t(i)] > 0 ? 1.0f / w.l[size_t(i)] : 0.0f;
        for (int c = 0; c < dv; ++c)
            out[size_t(i) * size_t(dv) + c] = w.acc[size_t(i) * size_t(dv) + c] * inv;
    }
}

__attribute__((target("avx2,fma"))) void attendRowsAvx2(const F32Attention& a, int r0, int rn,
                                                        const int* spans, int nSpans, float scale, Work& w,
                                                        float* out) {
    attendRowsBody<1>(a, r0, rn, spans, nSpans, scale, w, out);
}

void attendRowsBase(const F32Attention& a, int r0, int rn, const int* spans, int nSpans, float scale, Work& w,
                    float* out) {
    attendRowsBody<0>(a, r0, rn, spans, nSpans, scale, w, out);
}

bool cpuHasAvx2Fma() {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

void attendRows(const F32Attention& a, int r0, int rn, const int* spans, int nSpans, float scale, Work& w,
                float* out) {
    static const bool avx2 = cpuHasAvx2Fma();
    (avx2 && a.allowAvx2 ? attendRowsAvx2 : attendRowsBase)(a, r0, rn, spans, nSpans, scale, w, out);
}

} // namespace

bool tileAttentionF32UsesAvx2() {
    return cpuHasAvx2Fma();
}

void tileAttentionF32(const F32Attention& a, const TileGrid& grid, const TileMask* mask, float* out) {
    const float scale = float(1.0 / std::sqrt(double(a.dk)));
    Work w(a.dv);
    std::vector<int> spans;
    if (!mask) {
        spans = {0, a.keys};
        for (int r0 = 0; r0 < a.rows; r0 += kMaxRows)
            attendRows(a, r0, std::min(kMaxRows, a.rows - r0), spans.data(), 1, scale, w,
                       out + size_t(r0) * size_t(a.dv));
        return;
    }
    for (int g = 0; g < grid.groups(); ++g) {
        // Selected blocks of the group as contiguous key spans (adjacent blocks merged).
        spans.clear();
        for (int b = 0; b < grid.blocks(); ++b)
            if (mask->at(g, b)) {
                if (!spans.empty() && spans.back() == grid.blockBegin(b))
                    spans.back() = grid.blockEnd(b);
                else
                    spans.insert(spans.end(), {grid.blockBegin(b), grid.blockEnd(b)});
            }
        const int gBegin = g * grid.groupRows, gEnd = std::min(a.rows, gBegin + grid.groupRows);
        for (int r0 = gBegin; r0 < gEnd; r0 += kMaxRows)
            attendRows(a, r0, std::min(kMaxRows, gEnd - r0), spans.data(), int(spans.size() / 2), scale, w,
                       out + size_t(r0) * size_t(a.dv));
    }
}

} // namespace pl::tilesparse
