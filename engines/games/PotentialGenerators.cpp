#include "PotentialGenerators.h"

#include "core/Errors.h"
#include "core/Rng.h"

#include <string>

namespace pl::games {

namespace {

void checkShape(int rows, int cols) {
    if (rows < 1 || cols < 1 || rows > 4096 || cols > 4096)
        throw UsageError("random game size must be in [1, 4096], got " + std::to_string(rows) + "x" +
                         std::to_string(cols));
}

int64_t level(Rng& rng) {
    return int64_t(rng.uniformInt(uint64_t(kRandomGameLevels) + 1));
}

void setArgmaxTarget(FtrlGame& g, const std::vector<int64_t>& phi) {
    const ExactPayoffs& e = *g.exact;
    size_t best = 0;
    for (size_t k = 1; k < phi.size(); ++k)
        if (phi[k] > phi[best])
            best = k;
    g.targetRow = int(best / size_t(e.cols));
    g.targetCol = int(best % size_t(e.cols));
}

} // namespace

FtrlGame makeRandomPotentialGame(int rows, int cols, Rng& rng) {
    checkShape(rows, cols);
    ExactPayoffs e;
    e.rows = rows;
    e.cols = cols;
    e.denominator = kRandomGameLevels;
    std::vector<int64_t> phi(size_t(rows) * size_t(cols));
    for (auto& v : phi)
        v = level(rng);
    std::vector<int64_t> c(static_cast<size_t>(cols)), d(static_cast<size_t>(rows));
    for (auto& v : c)
        v = level(rng);
    for (auto& v : d)
        v = level(rng);
    e.a.resize(phi.size());
    e.b.resize(phi.size());
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j) {
            const size_t k = size_t(i) * size_t(cols) + size_t(j);
            e.a[k] = phi[k] + c[size_t(j)];
            e.b[k] = phi[k] + d[size_t(i)];
        }
    FtrlGame g;
    g.kind = "random_potential";
    g.title = "random potential game " + std::to_string(rows) + "x" + std::to_string(cols);
    g.exact = std::move(e);
    fillFromExact(g);
    setArgmaxTarget(g, phi);
    return g;
}

FtrlGame makeRandomIdenticalGame(int rows, int cols, Rng& rng) {
    checkShape(rows, cols);
    ExactPayoffs e;
    e.rows = rows;
    e.cols = cols;
    e.denominator = kRandomGameLevels;
    e.a.resize(size_t(rows) * size_t(cols));
    for (auto& v : e.a)
        v = level(rng);
    e.b = e.a;
    FtrlGame g;
    g.kind = "random_identical";
    g.title = "random identical-interest game " + std::to_string(rows) + "x" + std::to_string(cols);
    const std::vector<int64_t> phi = e.a;
    g.exact = std::move(e);
    fillFromExact(g);
    setArgmaxTarget(g, phi);
    return g;
}

} // namespace pl::games
