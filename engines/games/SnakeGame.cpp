#include "SnakeGame.h"

#include "core/Errors.h"

#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>

namespace pl::games {

namespace {

void checkSize(int n) {
    if (n < 2 || n > 4096)
        throw UsageError("snake size n must be in [2, 4096], got " + std::to_string(n));
}

FtrlGame snakeFromPathPayoffs(int n, const std::vector<int64_t>& p, int64_t denominator, std::string kind,
                              std::string title) {
    FtrlGame g;
    g.kind = std::move(kind);
    g.title = std::move(title);
    ExactPayoffs e;
    e.rows = e.cols = n;
    e.denominator = denominator;
    e.a.assign(size_t(n) * size_t(n), 0);
    for (int m = 0; m <= 2 * n - 2; ++m) {
        const auto [i, j] = snakePathProfile(m);
        e.a[size_t(i) * size_t(n) + size_t(j)] = p[size_t(m)];
        g.path.push_back({i, j});
    }
    e.b = e.a;
    g.exact = std::move(e);
    fillFromExact(g);
    g.targetRow = g.targetCol = n - 1;
    return g;
}

} // namespace

std::pair<int, int> snakePathProfile(int m) {
    return (m % 2 == 0) ? std::pair<int, int>{m / 2, m / 2} : std::pair<int, int>{(m + 1) / 2, (m - 1) / 2};
}

FtrlGame makeLinearSnake(int n) {
    checkSize(n);
    std::vector<int64_t> p(static_cast<size_t>(2 * n - 1));
    for (int m = 0; m <= 2 * n - 2; ++m)
        p[size_t(m)] = 2 * int64_t(n) + m; // p_k = 2n + k - 1 with k = m + 1
    return snakeFromPathPayoffs(n, p, 4 * int64_t(n), "snake_linear",
                                "linear snake n=" + std::to_string(n) + " (payoffs (2n+k-1)/(4n))");
}

FtrlGame makeGeometricSnake(int n, double r) {
    checkSize(n);
    if (!(r > 0) || !std::isfinite(r))
        throw UsageError("geometric snake ratio r must be positive, got " + std::to_string(r));
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", r);
    const std::string title = "geometric snake n=" + std::to_string(n) + ", r=" + buf;
    const int len = 2 * n - 1;
    // Exact form: r = a/b, 1 + 1/r = (a+b)/a, p_k (a+b)^(2n-2) = a^(2n-1-k) (a+b)^(k-1).
    for (int64_t b = 1; b <= 12; ++b) {
        const double ab = r * double(b);
        const double a0 = std::nearbyint(ab);
        if (a0 < 1 || std::abs(ab - a0) > 1e-9 * std::max(1.0, ab))
            continue;
        int64_t a = int64_t(a0), bb = b;
        const int64_t g = std::gcd(a, bb);
        a /= g;
        bb /= g;
        const double top = double(len - 1) * std::log2(double(a + bb));
        if (top >= 40.0)
            break;
        std::vector<int64_t> p(static_cast<size_t>(len));
        for (int m = 0; m < len; ++m) { // k = m + 1
            int64_t v = 1;
            for (int e = 0; e < len - 1 - m; ++e)
                v *= a;
            for (int e = 0; e < m; ++e)
                v *= (a + bb);
            p[size_t(m)] = v;
        }
        int64_t den = 1;
        for (int e = 0; e < len - 1; ++e)
            den *= (a + bb);
        return snakeFromPathPayoffs(n, p, den, "snake_geometric", title);
    }
    // Double-only form.
    FtrlGame g;
    g.kind = "snake_geometric";
    g.title = title + " (inexact payoffs)";
    g.A = Eigen::MatrixXd::Zero(n, n);
    for (int m = 0; m < len; ++m) {
        const auto [i, j] = snakePathProfile(m);
        g.A(i, j) = std::pow(1.0 + 1.0 / r, double(m - (len - 1)));
        g.path.push_back({i, j});
    }
    g.B = g.A;
    g.targetRow = g.targetCol = n - 1;
    return g;
}

} // namespace pl::games
