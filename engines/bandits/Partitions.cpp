#include "Partitions.h"

#include <algorithm>
#include <numeric>

namespace pl::bandits {

std::vector<int> randomPartition(int64_t rows, int k, Rng& rng) {
    std::vector<int64_t> order(static_cast<size_t>(rows));
    std::iota(order.begin(), order.end(), 0);
    for (size_t i = order.size(); i > 1; --i)
        std::swap(order[i - 1], order[size_t(rng.uniformInt(uint64_t(i)))]);
    std::vector<int> arm(static_cast<size_t>(rows));
    for (size_t i = 0; i < order.size(); ++i)
        arm[size_t(order[i])] = int(i * size_t(k) / order.size());
    return arm;
}

std::vector<int> kmeansPartition(const PackedFingerprints& fp, int k, Rng& rng,
                                 const std::function<void()>& poll) {
    const int64_t N = fp.rows();
    k = int(std::max<int64_t>(1, std::min<int64_t>(k, N)));
    const int W = fp.words(), B = fp.bits();
    std::vector<uint64_t> cent(size_t(k) * size_t(W));
    std::vector<int64_t> pick(static_cast<size_t>(N));
    std::iota(pick.begin(), pick.end(), 0);
    for (int c = 0; c < k; ++c) { // k distinct random rows
        std::swap(pick[size_t(c)], pick[size_t(c) + size_t(rng.uniformInt(uint64_t(N - c)))]);
        std::copy(fp.row(pick[size_t(c)]), fp.row(pick[size_t(c)]) + W, cent.begin() + long(c) * W);
    }
    std::vector<int> arm(static_cast<size_t>(N), 0);
    std::vector<int> counts;
    std::vector<int> bitCount;
    for (int it = 0; it < 10; ++it) {
        for (int64_t r = 0; r < N; ++r) {
            int best = 0, bestD = B + 1;
            for (int c = 0; c < k; ++c) {
                const int dist = fp.hamming(r, cent.data() + size_t(c) * size_t(W));
                if (dist < bestD) {
                    bestD = dist;
                    best = c;
                }
            }
            arm[size_t(r)] = best;
        }
        if (poll)
            poll();
        counts.assign(size_t(k), 0);
        bitCount.assign(size_t(k) * size_t(B), 0);
        for (int64_t r = 0; r < N; ++r) {
            const int c = arm[size_t(r)];
            ++counts[size_t(c)];
            for (int b = 0; b < B; ++b)
                bitCount[size_t(c) * size_t(B) + size_t(b)] += fp.test(r, b) ? 1 : 0;
        }
        for (int c = 0; c < k; ++c) {
            if (counts[size_t(c)] == 0)
                continue;
            uint64_t* w = cent.data() + size_t(c) * size_t(W);
            std::fill(w, w + W, 0);
            for (int b = 0; b < B; ++b)
                if (2 * bitCount[size_t(c) * size_t(B) + size_t(b)] > counts[size_t(c)])
                    w[b >> 6] |= uint64_t(1) << (b & 63);
        }
    }
    // Renumber the non-empty clusters 0..k'-1.
    std::vector<int> remap(size_t(k), -1);
    int next = 0;
    for (int64_t r = 0; r < N; ++r) {
        int& m = remap[size_t(arm[size_t(r)])];
        if (m < 0)
            m = next++;
        arm[size_t(r)] = m;
    }
    return arm;
}

int armCount(const std::vector<int>& arm) {
    int m = -1;
    for (int a : arm)
        m = std::max(m, a);
    return m + 1;
}

} // namespace pl::bandits
