#pragma once
/// Builders that turn engine objects (Eigen vectors and matrices, x/y columns, labels) into the plain
/// pieces of a ResultDocument, so that no engine converts by hand. Each copies values exactly (no
/// arithmetic) in the order stated. Pure functions; any thread. No Qt; JSON stays in ResultDocument.cpp.

#include "Numeric.h"
#include "ResultDocument.h"

#include <Eigen/Core>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace pl {

/// "<prefix><first>", "<prefix><first + 1>", …: \a n labels.
std::vector<std::string> numberedLabels(const std::string& prefix, int64_t n, int64_t first = 1);

/// \a labels when it has exactly \a n entries, none otherwise.
std::vector<std::string> labelsIfSized(const std::vector<std::string>& labels, int64_t n);

/// A result matrix holding \a m row by row (m(0,0), m(0,1), …), with the given row and column labels
/// (copied as they are; empty for none).
template <class Derived>
Matrix matrixOf(const Eigen::DenseBase<Derived>& m, std::vector<std::string> rowLabels = {},
                std::vector<std::string> colLabels = {}) {
    Matrix out;
    out.rows = int64_t(m.rows());
    out.cols = int64_t(m.cols());
    out.data.reserve(size_t(m.rows()) * size_t(m.cols()));
    for (Eigen::Index r = 0; r < m.rows(); ++r)
        for (Eigen::Index c = 0; c < m.cols(); ++c)
            out.data.push_back(double(m(r, c)));
    out.rowLabels = std::move(rowLabels);
    out.colLabels = std::move(colLabels);
    return out;
}

/// A result matrix of \a m with rows labelled "<rowPrefix><first>", … and columns
/// "<colPrefix><first>", … (first = 1 counts from one, 0 from zero).
template <class Derived>
Matrix matrixOf(const Eigen::DenseBase<Derived>& m, const std::string& rowPrefix,
                const std::string& colPrefix, int64_t first) {
    return matrixOf(m, numberedLabels(rowPrefix, int64_t(m.rows()), first),
                    numberedLabels(colPrefix, int64_t(m.cols()), first));
}

/// A result matrix whose row i is \a rows[i] (all of the same length); empty for no rows.
Matrix matrixOfRows(const std::vector<Eigen::VectorXd>& rows);

/// A rows x cols matrix of \a fill (e.g. kNaN for "not measured") with the given labels.
Matrix filledMatrix(int64_t rows, int64_t cols, double fill, std::vector<std::string> rowLabels = {},
                    std::vector<std::string> colLabels = {});

/// A series of the given columns and axis labels.
Series seriesOf(std::vector<double> x, std::vector<double> y, std::string xlabel, std::string ylabel);

/// An empty series with axis labels, to be filled point by point with addPoint().
Series emptySeries(std::string xlabel, std::string ylabel);

/// Appends the point (x, y) to \a s.
inline void addPoint(Series& s, double x, double y) {
    s.x.push_back(x);
    s.y.push_back(y);
}

/// A claim; `holds` is given, never derived here.
Claim claimOf(std::string id, std::string statement, bool holds, double observed, double threshold,
              std::string detail);

} // namespace pl
