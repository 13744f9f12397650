#include "nn/Tape.h"

#include "core/Errors.h"

#include <cmath>
#include <string>

namespace pl::nn {

namespace {

void shapeError(const char* op, const Mat& a, const Mat& b) {
    throw EngineError(std::string("nn::") + op + ": shape mismatch " + std::to_string(a.rows()) + "x" +
                      std::to_string(a.cols()) + " vs " + std::to_string(b.rows()) + "x" +
                      std::to_string(b.cols()));
}

enum class Bc { Same, Scalar, Row, Col };

Bc broadcastKind(const char* op, const Mat& a, const Mat& b) {
    if (a.rows() == b.rows() && a.cols() == b.cols())
        return Bc::Same;
    if (b.rows() == 1 && b.cols() == 1)
        return Bc::Scalar;
    if (b.rows() == 1 && b.cols() == a.cols())
        return Bc::Row;
    if (b.cols() == 1 && b.rows() == a.rows())
        return Bc::Col;
    shapeError(op, a, b);
    return Bc::Same;
}

/// b expanded to rows x cols.
Mat expand(const Mat& b, Bc k, Eigen::Index rows, Eigen::Index cols) {
    switch (k) {
    case Bc::Same:
        return b;
    case Bc::Scalar:
        return Mat::Constant(rows, cols, b(0, 0));
    case Bc::Row:
        return b.replicate(rows, 1);
    case Bc::Col:
        return b.replicate(1, cols);
    }
    return b;
}

/// Sums a full-shape gradient back onto b's shape.
Mat reduce(const Mat& g, Bc k) {
    switch (k) {
    case Bc::Same:
        return g;
    case Bc::Scalar:
        return Mat::Constant(1, 1, g.sum());
    case Bc::Row:
        return g.colwise().sum();
    case Bc::Col:
        return g.rowwise().sum();
    }
    return g;
}


/// a (op) b with b broadcast as described by k, without materialising the expanded b.
template <class Op>
Mat broadcastApply(const Mat& a, const Mat& b, Bc k, Op op) {
    Mat out(a.rows(), a.cols());
    switch (k) {
    case Bc::Same:
        out.array() = op(a.array(), b.array());
        break;
    case Bc::Scalar: {
        const double s = b(0, 0);
        out = a.unaryExpr([&](double x) { return op(x, s); });
        break;
    }
    case Bc::Row:
        for (Eigen::Index c = 0; c < a.cols(); ++c)
            out.col(c).array() = op(a.col(c).array(), b(0, c));
        break;
    case Bc::Col:
        for (Eigen::Index c = 0; c < a.cols(); ++c)
            out.col(c).array() = op(a.col(c).array(), b.col(0).array());
        break;
    }
    return out;
}

const auto kAdd = [](const auto& x, const auto& y) { return x + y; };
const auto kSub = [](const auto& x, const auto& y) { return x - y; };
const auto kMul = [](const auto& x, const auto& y) { return x * y; };
const auto kDiv = [](const auto& x, const auto& y) { return x / y; };

Tape& tapeOf(Var a) {
    if (!a.tape || a.id < 0)
        throw EngineError("nn: invalid Var");
    return *a.tape;
}

} // namespace

const Mat& Var::value() const {
    return tapeOf(*this).valueOf(id);
}

Mat Var::grad() const {
    return tapeOf(*this).gradOf(id);
}

Var Tape::push(Mat value, bool requiresGrad, BackwardFn fn) {
    Node n;
    n.value = std::move(value);
    n.requiresGrad = requiresGrad;
    if (requiresGrad)
        n.backward = std::move(fn);
    m_nodes.push_back(std::move(n));
    return Var{this, int(m_nodes.size()) - 1};
}

Var Tape::constant(Mat value) {
    return push(std::move(value), false, {});
}

Var Tape::variable(Mat value) {
    return push(std::move(value), true, {});
}

Var Tape::param(Parameter& p) {
    Var v = push(p.value, true, {});
    m_nodes.back().param = &p;
    if (p.grad.rows() != p.value.rows() || p.grad.cols() != p.value.cols())
        p.grad = Mat::Zero(p.value.rows(), p.value.cols());
    return v;
}

void Tape::accumulate(Var v, const Mat& g) {
    Node& n = m_nodes[size_t(v.id)];
    if (!n.requiresGrad)
        return;
    if (!n.hasGrad) {
        n.grad = g;
        n.hasGrad = true;
    } else {
        n.grad += g;
    }
}

Mat Tape::gradOf(int id) const {
    const Node& n = m_nodes[size_t(id)];
    return n.hasGrad ? n.grad : Mat::Zero(n.value.rows(), n.value.cols());
}

void Tape::backward(Var loss) {
    if (loss.tape != this || loss.rows() != 1 || loss.cols() != 1)
        throw EngineError("nn::Tape::backward needs a 1x1 loss on this tape");
    accumulate(loss, Mat::Ones(1, 1));
    for (int i = loss.id; i >= 0; --i) {
        Node& n = m_nodes[size_t(i)];
        if (!n.hasGrad)
            continue;
        if (n.param)
            n.param->grad += n.grad;
        if (n.backward)
            n.backward(*this, n.grad); // only earlier nodes are written; no push during backward
    }
}

// ---- ops ----

Var matmul(Var a, Var b) {
    Tape& t = tapeOf(a);
    if (a.cols() != b.rows())
        shapeError("matmul", a.value(), b.value());
    return t.push(a.value() * b.value(), t.requiresGrad(a) || t.requiresGrad(b),
                  [a, b](Tape& t, const Mat& g) {
                      if (t.requiresGrad(a))
                          t.accumulate(a, g * b.value().transpose());
                      if (t.requiresGrad(b))
                          t.accumulate(b, a.value().transpose() * g);
                  });
}

Var add(Var a, Var b) {
    Tape& t = tapeOf(a);
    const Bc k = broadcastKind("add", a.value(), b.value());
    Mat out = broadcastApply(a.value(), b.value(), k, kAdd);
    return t.push(std::move(out), t.requiresGrad(a) || t.requiresGrad(b), [a, b, k](Tape& t, const Mat& g) {
        t.accumulate(a, g);
        if (t.requiresGrad(b))
            t.accumulate(b, reduce(g, k));
    });
}

Var sub(Var a, Var b) {
    Tape& t = tapeOf(a);
    const Bc k = broadcastKind("sub", a.value(), b.value());
    Mat out = broadcastApply(a.value(), b.value(), k, kSub);
    return t.push(std::move(out), t.requiresGrad(a) || t.requiresGrad(b), [a, b, k](Tape& t, const Mat& g) {
        t.accumulate(a, g);
        if (t.requiresGrad(b))
            t.accumulate(b, -reduce(g, k));
    });
}

Var mul(Var a, Var b) {
    Tape& t = tapeOf(a);
    const Bc k = broadcastKind("mul", a.value(), b.value());
    Mat out = broadcastApply(a.value(), b.value(), k, kMul);
    return t.push(std::move(out), t.requiresGrad(a) || t.requiresGrad(b), [a, b, k](Tape& t, const Mat& g) {
        if (t.requiresGrad(a))
            t.accumulate(a, broadcastApply(g, b.value(), k, kMul));
        if (t.requiresGrad(b))
            t.accumulate(b, reduce(g.cwiseProduct(a.value()), k));
    });
}

Var div(Var a, Var b) {
    Tape& t = tapeOf(a);
    const Bc k = broadcastKind("div", a.value(), b.value());
    Mat out = broadcastApply(a.value(), b.value(), k, kDiv);
    return t.push(std::move(out), t.requiresGrad(a) || t.requiresGrad(b), [a, b, k](Tape& t, const Mat& g) {
        const Mat be = expand(b.value(), k, a.rows(), a.cols());
        if (t.requiresGrad(a))
            t.accumulate(a, g.cwiseQuotient(be));
        if (t.requiresGrad(b))
            t.accumulate(b, reduce(-(g.cwiseProduct(a.value())).cwiseQuotient(be.cwiseProduct(be)), k));
    });
}

Var scale(Var a, double s) {
    Tape& t = tapeOf(a);
    return t.push(s * a.value(), t.requiresGrad(a),
                  [a, s](Tape& t, const Mat& g) { t.accumulate(a, s * g); });
}

Var addScalar(Var a, double s) {
    Tape& t = tapeOf(a);
    return t.push((a.value().array() + s).matrix(), t.requiresGrad(a),
                  [a](Tape& t, const Mat& g) { t.accumulate(a, g); });
}

Var neg(Var a) {
    return scale(a, -1.0);
}

Var relu(Var a) {
    Tape& t = tapeOf(a);
    return t.push(a.value().cwiseMax(0.0), t.requiresGrad(a), [a](Tape& t, const Mat& g) {
        t.accumulate(a, (a.value().array() > 0).select(g, 0.0).matrix());
    });
}

Var tanh(Var a) {
    Tape& t = tapeOf(a);
    Mat y = a.value().array().tanh().matrix();
    const int id = t.size();
    return t.push(std::move(y), t.requiresGrad(a), [a, id](Tape& t, const Mat& g) {
        const Mat& y = t.valueOf(id);
        t.accumulate(a, (g.array() * (1.0 - y.array().square())).matrix());
    });
}

Var sigmoid(Var a) {
    Tape& t = tapeOf(a);
    // 1 / (1 + exp(-x)) written to avoid overflow for large |x|.
    Mat y = a.value().unaryExpr([](double x) {
        if (x >= 0)
            return 1.0 / (1.0 + std::exp(-x));
        const double e = std::exp(x);
        return e / (1.0 + e);
    });
    const int id = t.size();
    return t.push(std::move(y), t.requiresGrad(a), [a, id](Tape& t, const Mat& g) {
        const Mat& y = t.valueOf(id);
        t.accumulate(a, (g.array() * y.array() * (1.0 - y.array())).matrix());
    });
}

Var exp(Var a) {
    Tape& t = tapeOf(a);
    Mat y = a.value().array().exp().matrix();
    const int id = t.size();
    return t.push(std::move(y), t.requiresGrad(a),
                  [a, id](Tape& t, const Mat& g) { t.accumulate(a, g.cwiseProduct(t.valueOf(id))); });
}

Var softplus(Var a) {
    Tape& t = tapeOf(a);
    // log(1 + exp(x)) = max(x, 0) + log1p(exp(-|x|)); derivative sigmoid(x).
    Mat y =
        a.value().unaryExpr([](double x) { return std::max(x, 0.0) + std::log1p(std::exp(-std::abs(x))); });
    return t.push(std::move(y), t.requiresGrad(a), [a](Tape& t, const Mat& g) {
        const Mat s = a.value().unaryExpr([](double x) {
            if (x >= 0)
                return 1.0 / (1.0 + std::exp(-x));
            const double e = std::exp(x);
            return e / (1.0 + e);
        });
        t.accumulate(a, g.cwiseProduct(s));
    });
}

Var log(Var a) {
    Tape& t = tapeOf(a);
    return t.push(a.value().array().log().matrix(), t.requiresGrad(a),
                  [a](Tape& t, const Mat& g) { t.accumulate(a, g.cwiseQuotient(a.value())); });
}

Var square(Var a) {
    Tape& t = tapeOf(a);
    return t.push(a.value().cwiseProduct(a.value()), t.requiresGrad(a),
                  [a](Tape& t, const Mat& g) { t.accumulate(a, 2.0 * g.cwiseProduct(a.value())); });
}

Var sum(Var a) {
    Tape& t = tapeOf(a);
    return t.push(Mat::Constant(1, 1, a.value().sum()), t.requiresGrad(a), [a](Tape& t, const Mat& g) {
        t.accumulate(a, Mat::Constant(a.rows(), a.cols(), g(0, 0)));
    });
}

Var mean(Var a) {
    const double n = double(a.rows() * a.cols());
    if (n <= 0)
        throw EngineError("nn::mean of an empty matrix");
    return scale(sum(a), 1.0 / n);
}

Var rowSum(Var a) {
    Tape& t = tapeOf(a);
    return t.push(a.value().rowwise().sum(), t.requiresGrad(a),
                  [a](Tape& t, const Mat& g) { t.accumulate(a, g.replicate(1, a.cols())); });
}

Var colMean(Var a) {
    Tape& t = tapeOf(a);
    const double n = double(a.rows());
    if (n <= 0)
        throw EngineError("nn::colMean of an empty matrix");
    return t.push(a.value().colwise().sum() / n, t.requiresGrad(a),
                  [a, n](Tape& t, const Mat& g) { t.accumulate(a, g.replicate(a.rows(), 1) / n); });
}

Var logSumExp(Var a) {
    Tape& t = tapeOf(a);
    const Mat& x = a.value();
    Mat out(x.rows(), 1);
    Mat soft(x.rows(), x.cols());
    for (Eigen::Index r = 0; r < x.rows(); ++r) {
        const double m = x.row(r).maxCoeff();
        const Eigen::RowVectorXd e = (x.row(r).array() - m).exp().matrix();
        const double s = e.sum();
        out(r, 0) = m + std::log(s);
        soft.row(r) = e / s;
    }
    return t.push(std::move(out), t.requiresGrad(a), [a, soft](Tape& t, const Mat& g) {
        t.accumulate(a, soft.array().colwise() * g.col(0).array());
    });
}

Var softmaxRows(Var a) {
    Tape& t = tapeOf(a);
    const Mat& x = a.value();
    Mat y(x.rows(), x.cols());
    for (Eigen::Index r = 0; r < x.rows(); ++r) {
        const Eigen::RowVectorXd e = (x.row(r).array() - x.row(r).maxCoeff()).exp().matrix();
        y.row(r) = e / e.sum();
    }
    const int id = t.size();
    return t.push(std::move(y), t.requiresGrad(a), [a, id](Tape& t, const Mat& g) {
        const Mat& y = t.valueOf(id);
        const Eigen::VectorXd dot = (g.cwiseProduct(y)).rowwise().sum();
        t.accumulate(a, (y.array() * (g.colwise() - dot).array()).matrix());
    });
}

Var softmaxCrossEntropy(Var logits, const std::vector<int>& labels) {
    Tape& t = tapeOf(logits);
    const Mat& x = logits.value();
    if (Eigen::Index(labels.size()) != x.rows())
        throw EngineError("nn::softmaxCrossEntropy: " + std::to_string(labels.size()) + " labels for " +
                          std::to_string(x.rows()) + " rows");
    Mat out(x.rows(), 1);
    Mat soft(x.rows(), x.cols());
    for (Eigen::Index r = 0; r < x.rows(); ++r) {
        const int l = labels[size_t(r)];
        if (l < 0 || l >= x.cols())
            throw EngineError("nn::softmaxCrossEntropy: label out of range");
        const double m = x.row(r).maxCoeff();
        const Eigen::RowVectorXd e = (x.row(r).array() - m).exp().matrix();
        const double s = e.sum();
        out(r, 0) = m + std::log(s) - x(r, l);
        soft.row(r) = e / s;
        soft(r, l) -= 1.0; // d loss / d logits = softmax - onehot
    }
    return t.push(std::move(out), t.requiresGrad(logits), [logits, soft](Tape& t, const Mat& g) {
        t.accumulate(logits, soft.array().colwise() * g.col(0).array());
    });
}

Var gatherRows(Var a, const std::vector<int>& idx) {
    Tape& t = tapeOf(a);
    const Mat& x = a.value();
    Mat out(Eigen::Index(idx.size()), x.cols());
    for (size_t r = 0; r < idx.size(); ++r) {
        if (idx[r] < 0 || idx[r] >= x.rows())
            throw EngineError("nn::gatherRows: index out of range");
        out.row(Eigen::Index(r)) = x.row(idx[r]);
    }
    return t.push(std::move(out), t.requiresGrad(a), [a, idx](Tape& t, const Mat& g) {
        Mat ga = Mat::Zero(a.rows(), a.cols());
        for (size_t r = 0; r < idx.size(); ++r)
            ga.row(idx[r]) += g.row(Eigen::Index(r));
        t.accumulate(a, ga);
    });
}

Var scatterSumRows(Var a, const std::vector<int>& idx, int outRows) {
    Tape& t = tapeOf(a);
    const Mat& x = a.value();
    if (Eigen::Index(idx.size()) != x.rows())
        throw EngineError("nn::scatterSumRows: index count differs from rows");
    Mat out = Mat::Zero(outRows, x.cols());
    for (size_t r = 0; r < idx.size(); ++r) {
        if (idx[r] < 0 || idx[r] >= outRows)
            throw EngineError("nn::scatterSumRows: index out of range");
        out.row(idx[r]) += x.row(Eigen::Index(r));
    }
    return t.push(std::move(out), t.requiresGrad(a), [a, idx](Tape& t, const Mat& g) {
        Mat ga(a.rows(), a.cols());
        for (size_t r = 0; r < idx.size(); ++r)
            ga.row(Eigen::Index(r)) = g.row(idx[r]);
        t.accumulate(a, ga);
    });
}

Var concatCols(const std::vector<Var>& parts) {
    if (parts.empty())
        throw EngineError("nn::concatCols of nothing");
    Tape& t = tapeOf(parts[0]);
    const Eigen::Index rows = parts[0].rows();
    Eigen::Index cols = 0;
    bool rg = false;
    for (const Var& p : parts) {
        if (p.rows() != rows)
            shapeError("concatCols", parts[0].value(), p.value());
        cols += p.cols();
        rg = rg || t.requiresGrad(p);
    }
    Mat out(rows, cols);
    Eigen::Index c = 0;
    for (const Var& p : parts) {
        out.middleCols(c, p.cols()) = p.value();
        c += p.cols();
    }
    return t.push(std::move(out), rg, [parts](Tape& t, const Mat& g) {
        Eigen::Index c = 0;
        for (const Var& p : parts) {
            if (t.requiresGrad(p))
                t.accumulate(p, g.middleCols(c, p.cols()));
            c += p.cols();
        }
    });
}

Var sliceCols(Var a, int start, int count) {
    Tape& t = tapeOf(a);
    if (start < 0 || count < 0 || start + count > a.cols())
        throw EngineError("nn::sliceCols: range out of bounds");
    return t.push(a.value().middleCols(start, count), t.requiresGrad(a),
                  [a, start, count](Tape& t, const Mat& g) {
                      Mat ga = Mat::Zero(a.rows(), a.cols());
                      ga.middleCols(start, count) = g;
                      t.accumulate(a, ga);
                  });
}

Var transpose(Var a) {
    Tape& t = tapeOf(a);
    return t.push(a.value().transpose(), t.requiresGrad(a),
                  [a](Tape& t, const Mat& g) { t.accumulate(a, g.transpose()); });
}

Var klGaussian(Var mu, Var logvar, double mu0, double var0) {
    Tape& t = tapeOf(mu);
    if (mu.rows() != logvar.rows() || mu.cols() != logvar.cols())
        shapeError("klGaussian", mu.value(), logvar.value());
    // KL = 0.5 * ( var/var0 + (mu-mu0)^2/var0 - 1 + log var0 - logvar )
    const Mat var = logvar.value().array().exp().matrix();
    Mat out = (0.5 * (var.array() / var0 + (mu.value().array() - mu0).square() / var0 - 1.0 + std::log(var0) -
                      logvar.value().array()))
                  .matrix();
    return t.push(std::move(out), t.requiresGrad(mu) || t.requiresGrad(logvar),
                  [mu, logvar, mu0, var0, var](Tape& t, const Mat& g) {
                      if (t.requiresGrad(mu))
                          t.accumulate(mu, (g.array() * (mu.value().array() - mu0) / var0).matrix());
                      if (t.requiresGrad(logvar))
                          t.accumulate(logvar, (g.array() * 0.5 * (var.array() / var0 - 1.0)).matrix());
                  });
}

Var reparam(Var mu, Var logvar, const Mat& eps) {
    Tape& t = tapeOf(mu);
    if (mu.rows() != logvar.rows() || mu.cols() != logvar.cols() || eps.rows() != mu.rows() ||
        eps.cols() != mu.cols())
        shapeError("reparam", mu.value(), logvar.value());
    const Mat sd = (0.5 * logvar.value().array()).exp().matrix();
    Mat out = mu.value() + sd.cwiseProduct(eps);
    return t.push(std::move(out), t.requiresGrad(mu) || t.requiresGrad(logvar),
                  [mu, logvar, sd, eps](Tape& t, const Mat& g) {
                      t.accumulate(mu, g);
                      if (t.requiresGrad(logvar))
                          t.accumulate(logvar, (0.5 * g.array() * sd.array() * eps.array()).matrix());
                  });
}

} // namespace pl::nn
