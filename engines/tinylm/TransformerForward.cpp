#include "TransformerForward.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pl::tinylm {

Mat layerNormRows(const Mat& x, const RowVec& w, const RowVec& b) {
    Mat y(x.rows(), x.cols());
    for (Eigen::Index r = 0; r < x.rows(); ++r) {
        const double mu = x.row(r).mean();
        const double var = (x.row(r).array() - mu).square().mean();
        y.row(r) = ((x.row(r).array() - mu) / std::sqrt(var + 1e-5)).matrix().cwiseProduct(w) + b;
    }
    return y;
}

Mat rowTimes(const Mat& x, const Mat& w) {
    Mat y(x.rows(), w.cols());
    Eigen::RowVectorXd xr(x.cols());
    for (Eigen::Index r = 0; r < x.rows(); ++r) {
        xr = x.row(r);
        y.row(r).noalias() = xr * w;
    }
    return y;
}

int argmaxRow(const Mat& logits, int r) {
    int best = 0;
    for (Eigen::Index j = 1; j < logits.cols(); ++j)
        if (logits(r, j) > logits(r, best))
            best = int(j);
    return best;
}

namespace {

Mat normed(const TransformerModel& m, const Mat& h, const RowVec& w, const RowVec& b) {
    return m.norm == Norm::LayerNorm ? layerNormRows(h, w, b) : h;
}

/// q.k with four interleaved partial sums (a fixed order, the same for every row and batch).
double dotFixed(const double* a, const double* b, int n) {
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += a[i] * b[i];
        s1 += a[i + 1] * b[i + 1];
        s2 += a[i + 2] * b[i + 2];
        s3 += a[i + 3] * b[i + 3];
    }
    for (; i < n; ++i)
        s0 += a[i] * b[i];
    return (s0 + s1) + (s2 + s3);
}

/// Attention of every row and head of one layer; returns the concatenated head outputs.
Mat attend(const TransformerModel& m, const KvCache& c, int layer, const std::vector<RowSpec>& rows,
           const Mat& q, const RowMat& kb, const RowMat& vb, const ForwardOptions& opt) {
    const int dh = m.dHead(), H = m.nHeads, n = c.length();
    const double scale = 1.0 / std::sqrt(double(dh));
    const RowMat& K = c.keys(layer);
    const RowMat& V = c.values(layer);
    Mat out = Mat::Zero(Eigen::Index(rows.size()), m.dModel());
    std::vector<int> keys, full(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i)
        full[size_t(i)] = i;
    std::vector<double> s;
    Eigen::RowVectorXd qh(dh);
    for (size_t r = 0; r < rows.size(); ++r) {
        const RowSpec& row = rows[r];
        for (int h = 0; h < H; ++h) {
            const int off = h * dh;
            qh = q.row(Eigen::Index(r)).segment(off, dh);
            if (row.view)
                row.view->select(c, layer, h, dh, qh.data(), keys);
            const std::vector<int>& ck = row.view ? keys : full;
            const size_t nb = row.batchKeys.size() + 1;
            s.resize(ck.size() + nb);
            double mx = -std::numeric_limits<double>::infinity();
            for (size_t j = 0; j < ck.size(); ++j) {
                s[j] = dotFixed(qh.data(), K.row(ck[j]).data() + off, dh) * scale;
                mx = std::max(mx, s[j]);
            }
            for (size_t j = 0; j < nb; ++j) {
                const int br = j + 1 < nb ? row.batchKeys[j] : int(r);
                s[ck.size() + j] = dotFixed(qh.data(), kb.row(br).data() + off, dh) * scale;
                mx = std::max(mx, s[ck.size() + j]);
            }
            double z = 0;
            for (double& x : s) {
                x = std::exp(x - mx);
                z += x;
            }
            Eigen::RowVectorXd acc = Eigen::RowVectorXd::Zero(dh);
            for (size_t j = 0; j < ck.size(); ++j) {
                s[j] /= z;
                acc += s[j] * V.row(ck[j]).segment(off, dh);
            }
            for (size_t j = 0; j < nb; ++j) {
                const int br = j + 1 < nb ? row.batchKeys[j] : int(r);
                s[ck.size() + j] /= z;
                acc += s[ck.size() + j] * vb.row(br).segment(off, dh);
            }
            out.row(Eigen::Index(r)).segment(off, dh) = acc;
            if (opt.observer && r < opt.observeRows.size() && opt.observeRows[r]) {
                std::vector<int> at = ck;
                for (int b : row.batchKeys)
                    at.push_back(rows[size_t(b)].pos);
                at.push_back(row.pos);
                opt.observer->observe(layer, h, at, s);
            }
            if (opt.maskOut && layer == opt.maskLayer && h == opt.maskHead) {
                std::vector<int> vis = ck;
                for (int b : row.batchKeys)
                    vis.push_back(n + b);
                vis.push_back(n + int(r));
                (*opt.maskOut)[r] = std::move(vis);
            }
        }
    }
    return out;
}

} // namespace

BatchOutput forwardBatch(const TransformerModel& m, const KvCache& cache, const std::vector<RowSpec>& rows,
                         const ForwardOptions& opt) {
    const auto R = Eigen::Index(rows.size());
    Mat h(R, m.dModel());
    for (Eigen::Index r = 0; r < R; ++r)
        h.row(r) = m.tokEmb.row(rows[size_t(r)].token) + m.posEmb.row(rows[size_t(r)].pos);
    if (opt.maskOut)
        opt.maskOut->assign(rows.size(), {});
    BatchOutput out;
    for (size_t l = 0; l < m.layers.size(); ++l) {
        const TransformerLayer& y = m.layers[l];
        const Mat x = normed(m, h, y.ln1w, y.ln1b);
        out.k.emplace_back(rowTimes(x, y.wk));
        out.v.emplace_back(rowTimes(x, y.wv));
        if (opt.skipAttention.size() <= l || !opt.skipAttention[l]) {
            const Mat q = rowTimes(x, y.wq);
            h += rowTimes(attend(m, cache, int(l), rows, q, out.k.back(), out.v.back(), opt), y.wo);
        }
        if (y.hasMlp) {
            Mat a = rowTimes(normed(m, h, y.ln2w, y.ln2b), y.w1);
            a.rowwise() += y.b1;
            applyAct(m.act, a);
            Mat o = rowTimes(a, y.w2);
            o.rowwise() += y.b2;
            h += o;
        }
    }
    out.hidden = h;
    out.logits = rowTimes(normed(m, h, m.lnfw, m.lnfb), m.head);
    return out;
}

void commitRow(KvCache& cache, const BatchOutput& out, int r) {
    std::vector<const double*> k, v;
    for (size_t l = 0; l < out.k.size(); ++l) {
        k.push_back(out.k[l].row(r).data());
        v.push_back(out.v[l].row(r).data());
    }
    cache.append(k, v);
}

} // namespace pl::tinylm
