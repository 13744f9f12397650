#include "ResultBuilders.h"

namespace pl {

std::vector<std::string> numberedLabels(const std::string& prefix, int64_t n, int64_t first) {
    std::vector<std::string> out;
    out.reserve(size_t(n > 0 ? n : 0));
    for (int64_t i = 0; i < n; ++i)
        out.push_back(prefix + std::to_string(i + first));
    return out;
}

std::vector<std::string> labelsIfSized(const std::vector<std::string>& labels, int64_t n) {
    return int64_t(labels.size()) == n ? labels : std::vector<std::string>{};
}

Matrix matrixOfRows(const std::vector<Eigen::VectorXd>& rows) {
    Matrix m;
    if (rows.empty())
        return m;
    m.rows = int64_t(rows.size());
    m.cols = rows.front().size();
    for (const auto& r : rows)
        for (Eigen::Index k = 0; k < r.size(); ++k)
            m.data.push_back(r(k));
    return m;
}

Matrix filledMatrix(int64_t rows, int64_t cols, double fill, std::vector<std::string> rowLabels,
                    std::vector<std::string> colLabels) {
    Matrix m;
    m.rows = rows;
    m.cols = cols;
    m.data.assign(size_t(rows * cols), fill);
    m.rowLabels = std::move(rowLabels);
    m.colLabels = std::move(colLabels);
    return m;
}

Series seriesOf(std::vector<double> x, std::vector<double> y, std::string xlabel, std::string ylabel) {
    Series s;
    s.x = std::move(x);
    s.y = std::move(y);
    s.xlabel = std::move(xlabel);
    s.ylabel = std::move(ylabel);
    return s;
}

Series emptySeries(std::string xlabel, std::string ylabel) {
    return seriesOf({}, {}, std::move(xlabel), std::move(ylabel));
}

Claim claimOf(std::string id, std::string statement, bool holds, double observed, double threshold,
              std::string detail) {
    Claim c;
    c.id = std::move(id);
    c.statement = std::move(statement);
    c.holds = holds;
    c.observed = observed;
    c.threshold = threshold;
    c.detail = std::move(detail);
    return c;
}

} // namespace pl
