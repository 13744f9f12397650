#include "convimg/BradleyTerry.h"

#include "core/CsvReader.h"
#include "core/DenseLu.h"
#include "core/Errors.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

namespace pl::convimg {

namespace {

double logSigmoid(double z) {
    return z >= 0 ? -std::log1p(std::exp(-z)) : z - std::log1p(std::exp(z));
}

double sigmoid(double z) {
    return z >= 0 ? 1 / (1 + std::exp(-z)) : std::exp(z) / (1 + std::exp(z));
}

/// Penalised objective at theta = (coef, b).
double objective(const Eigen::MatrixXd& Z, const Eigen::VectorXd& theta, double l2, Eigen::Index d) {
    const Eigen::VectorXd z = Z * theta;
    double f = 0;
    for (Eigen::Index i = 0; i < z.size(); ++i)
        f += logSigmoid(z(i));
    return f - 0.5 * l2 * theta.head(d).squaredNorm();
}

std::vector<std::string> splitCsv(const std::string& line) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : line) {
        if (c == ',') {
            out.push_back(cur);
            cur.clear();
        } else if (c != '\r') {
            cur += c;
        }
    }
    out.push_back(cur);
    for (auto& f : out) {
        const auto b = f.find_first_not_of(" \t"), e = f.find_last_not_of(" \t");
        f = b == std::string::npos ? std::string() : f.substr(b, e - b + 1);
    }
    return out;
}

} // namespace

BtFit fitBradleyTerry(const Eigen::MatrixXd& X, const std::vector<int>& s, const std::vector<int>& o,
                      double l2, int maxIter, double tol) {
    const Eigen::Index m = X.rows(), d = X.cols();
    if (Eigen::Index(s.size()) != m || Eigen::Index(o.size()) != m || !(l2 > 0))
        throw EngineError("fitBradleyTerry: bad arguments");
    // Z_i = s_i (x_i, o_i): maximise sum log sigma(Z theta) - l2/2 |coef|^2.
    Eigen::MatrixXd Z(m, d + 1);
    for (Eigen::Index i = 0; i < m; ++i) {
        Z.row(i).head(d) = double(s[size_t(i)]) * X.row(i);
        Z(i, d) = double(s[size_t(i)] * o[size_t(i)]);
    }
    Eigen::VectorXd theta = Eigen::VectorXd::Zero(d + 1), pen = Eigen::VectorXd::Constant(d + 1, l2);
    pen(d) = 1e-12 * l2; // keeps the Hessian invertible when no duel varies the order
    BtFit fit;
    double f = objective(Z, theta, l2, d);
    for (int it = 0; it < maxIter; ++it) {
        const Eigen::VectorXd z = Z * theta;
        Eigen::VectorXd r(m), w(m);
        for (Eigen::Index i = 0; i < m; ++i) {
            const double q = sigmoid(-z(i)); // d/dz log sigma(z)
            r(i) = q;
            w(i) = q * (1 - q);
        }
        Eigen::VectorXd g = Z.transpose() * r;
        g.head(d) -= l2 * theta.head(d);
        fit.iterations = it;
        if (g.cwiseAbs().maxCoeff() < tol)
            break;
        Eigen::MatrixXd H = Z.transpose() * w.asDiagonal() * Z;
        H.diagonal() += pen;
        const Eigen::VectorXd step = luSolve(H, g);
        double t = 1;
        for (int k = 0; k < 40; ++k, t *= 0.5) {
            const Eigen::VectorXd cand = theta + t * step;
            const double fc = objective(Z, cand, l2, d);
            if (fc >= f - 1e-12 * std::abs(f)) {
                theta = cand;
                f = fc;
                break;
            }
        }
        fit.iterations = it + 1;
    }
    fit.coef = theta.head(d);
    fit.positionBias = theta(d);
    fit.logLikelihood = f + 0.5 * l2 * fit.coef.squaredNorm();
    return fit;
}

Eigen::MatrixXd ChoiceLog::differenceFeatures() const {
    Eigen::MatrixXd X = Eigen::MatrixXd::Zero(Eigen::Index(a.size()), Eigen::Index(names.size()));
    for (size_t i = 0; i < a.size(); ++i) {
        X(Eigen::Index(i), a[i]) += 1;
        X(Eigen::Index(i), b[i]) -= 1;
    }
    return X;
}

bool ChoiceLog::degenerate() const {
    bool allFirst = true, allSecond = true, allA = true;
    for (size_t i = 0; i < s.size(); ++i) {
        const bool firstWon = s[i] * o[i] > 0;
        allFirst = allFirst && firstWon;
        allSecond = allSecond && !firstWon;
        allA = allA && s[i] > 0;
    }
    return !s.empty() && (allFirst || allSecond || allA);
}

ChoiceLog parseChoiceLog(const std::string& text, const std::string& name) {
    std::istringstream in(text);
    std::string line;
    int lineNo = 0;
    bool header = false;
    struct Row {
        std::string a, b;
        int s, o, line;
    };
    std::vector<Row> rows;
    while (std::getline(in, line)) {
        ++lineNo;
        if (line.find_first_not_of(" \t\r") == std::string::npos ||
            line[line.find_first_not_of(" \t")] == '#')
            continue;
        const std::vector<std::string> f = splitCsv(line);
        if (!header) {
            if (f != std::vector<std::string>{"image_a", "image_b", "chosen", "order"})
                throw InputError(name, "the header must be image_a,image_b,chosen,order", lineNo);
            header = true;
            continue;
        }
        if (f.size() != 4)
            throw InputError(name, "expected 4 fields, got " + std::to_string(f.size()), lineNo);
        if (f[0].empty() || f[1].empty())
            throw InputError(name, "empty image name", lineNo);
        if (f[0] == f[1])
            throw InputError(name, "image '" + f[0] + "' against itself", lineNo);
        if (f[2] != "a" && f[2] != "b")
            throw InputError(name, "chosen must be a or b, not '" + f[2] + "'", lineNo, 3);
        if (f[3] != "ab" && f[3] != "ba")
            throw InputError(name, "order must be ab or ba, not '" + f[3] + "'", lineNo, 4);
        rows.push_back({f[0], f[1], f[2] == "a" ? 1 : -1, f[3] == "ab" ? 1 : -1, lineNo});
    }
    if (!header)
        throw InputError(name, "empty file: expected the header image_a,image_b,chosen,order");
    if (rows.empty())
        throw InputError(name, "no duels after the header", lineNo);
    std::map<std::string, int> index;
    for (const Row& r : rows) {
        index.emplace(r.a, 0);
        index.emplace(r.b, 0);
    }
    ChoiceLog log;
    for (auto& [k, v] : index) {
        v = int(log.names.size());
        log.names.push_back(k);
    }
    for (const Row& r : rows) {
        log.a.push_back(index[r.a]);
        log.b.push_back(index[r.b]);
        log.s.push_back(r.s);
        log.o.push_back(r.o);
        log.lines.push_back(r.line);
    }
    return log;
}

ChoiceLog readChoiceLog(const std::string& path) {
    return parseChoiceLog(readFileChecked(path, 64ll << 20), path);
}

} // namespace pl::convimg
