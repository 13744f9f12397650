#include "TinyModel.h"

#include "core/Errors.h"

#include <cmath>
#include <stdexcept>

namespace pl::tinylm {

Act actFromName(const std::string& s) {
    if (s == "relu")
        return Act::Relu;
    if (s == "gelu")
        return Act::Gelu;
    if (s == "tanh")
        return Act::Tanh;
    throw std::invalid_argument("unknown activation '" + s + "'");
}

std::string actName(Act a) {
    return a == Act::Relu ? "relu" : a == Act::Gelu ? "gelu" : "tanh";
}

void applyAct(Act a, Mat& x) {
    switch (a) {
    case Act::Relu:
        x = x.cwiseMax(0.0);
        break;
    case Act::Tanh:
        x = x.array().tanh().matrix();
        break;
    case Act::Gelu:
        x = x.unaryExpr([](double v) { return 0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0))); });
        break;
    }
}

namespace {

class Builder {
public:
    Builder(const SafeTensorsFile& f, std::string path) : m_f(f), m_path(std::move(path)) {}

    std::string meta(const std::string& key, const std::string& def) const {
        const auto it = m_f.metadata.find(key);
        return it == m_f.metadata.end() ? def : it->second;
    }
    int metaInt(const std::string& key, int def, int lo, int hi) const {
        const std::string s = meta(key, std::to_string(def));
        size_t used = 0;
        long v = 0;
        try {
            v = std::stol(s, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != s.size() || v < lo || v > hi)
            throw InputError(m_path, "__metadata__ '" + key + "' = '" + s + "' is not an integer in [" +
                                         std::to_string(lo) + ", " + std::to_string(hi) + "]");
        return int(v);
    }
    Act act(const std::vector<std::string>& allowed, const std::string& def) const {
        const std::string s = meta("act", def);
        for (const auto& a : allowed)
            if (s == a)
                return actFromName(s);
        throw InputError(m_path, "__metadata__ 'act' = '" + s + "' is not supported for this arch");
    }
    /// The tensor \a name with shape rows x cols (cols < 0: a vector of rows entries).
    Mat mat(const std::string& name, int64_t rows, int64_t cols) const {
        const auto it = m_f.tensors.find(name);
        if (it == m_f.tensors.end())
            throw InputError(m_path, "missing tensor '" + name + "'");
        const Tensor& t = it->second;
        const bool ok = cols < 0 ? (t.shape.size() == 1 && t.shape[0] == rows)
                                 : (t.shape.size() == 2 && t.shape[0] == rows && t.shape[1] == cols);
        if (!ok || (rows < 0))
            throw InputError(m_path, "tensor '" + name + "' has shape " + shapeText(t.shape) + ", expected " +
                                         shapeText(cols < 0 ? std::vector<int64_t>{rows}
                                                            : std::vector<int64_t>{rows, cols}));
        const int64_t c = cols < 0 ? 1 : cols;
        Mat m(rows, c);
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t k = 0; k < c; ++k)
                m(r, k) = t.data[size_t(r * c + k)];
        for (double v : t.data)
            if (!std::isfinite(v))
                throw InputError(m_path, "tensor '" + name + "' holds a non-finite value");
        return m;
    }
    RowVec vec(const std::string& name, int64_t n) const { return mat(name, n, -1).col(0).transpose(); }
    /// Shape of a 2-d tensor (throws naming it when missing or not 2-d).
    std::pair<int64_t, int64_t> shape2(const std::string& name) const {
        const auto it = m_f.tensors.find(name);
        if (it == m_f.tensors.end())
            throw InputError(m_path, "missing tensor '" + name + "'");
        if (it->second.shape.size() != 2 || it->second.shape[0] < 1 || it->second.shape[1] < 1)
            throw InputError(m_path, "tensor '" + name + "' has shape " + shapeText(it->second.shape) +
                                         ", expected a non-empty matrix");
        return {it->second.shape[0], it->second.shape[1]};
    }
    bool has(const std::string& name) const { return m_f.tensors.count(name) != 0; }
    const std::string& path() const { return m_path; }

    static std::string shapeText(const std::vector<int64_t>& s) {
        std::string out = "[";
        for (size_t i = 0; i < s.size(); ++i)
            out += (i ? ", " : "") + std::to_string(s[i]);
        return out + "]";
    }

private:
    const SafeTensorsFile& m_f;
    std::string m_path;
};

TransformerModel transformerFrom(const Builder& b) {
    TransformerModel m;
    const int L = b.metaInt("n_layers", 1, 1, 64);
    m.nHeads = b.metaInt("n_heads", 1, 1, 64);
    const std::string norm = b.meta("norm", "none");
    if (norm != "layernorm" && norm != "none")
        throw InputError(b.path(), "__metadata__ 'norm' = '" + norm + "' (layernorm or none)");
    m.norm = norm == "layernorm" ? Norm::LayerNorm : Norm::None;
    m.act = b.act({"relu", "gelu"}, "relu");
    const auto [V, d] = b.shape2("tok_emb");
    if (d % m.nHeads != 0)
        throw InputError(b.path(), "d_model " + std::to_string(d) + " is not a multiple of n_heads " +
                                       std::to_string(m.nHeads));
    m.tokEmb = b.mat("tok_emb", V, d);
    m.posEmb = b.mat("pos_emb", b.shape2("pos_emb").first, d);
    const bool ln = m.norm == Norm::LayerNorm;
    for (int l = 0; l < L; ++l) {
        const std::string p = "layers." + std::to_string(l) + ".";
        TransformerLayer y;
        if (ln) {
            y.ln1w = b.vec(p + "ln1.weight", d);
            y.ln1b = b.vec(p + "ln1.bias", d);
        }
        y.wq = b.mat(p + "attn.wq", d, d);
        y.wk = b.mat(p + "attn.wk", d, d);
        y.wv = b.mat(p + "attn.wv", d, d);
        y.wo = b.mat(p + "attn.wo", d, d);
        y.hasMlp = b.has(p + "mlp.w1");
        if (y.hasMlp) {
            const int64_t f = b.shape2(p + "mlp.w1").second;
            y.w1 = b.mat(p + "mlp.w1", d, f);
            y.b1 = b.vec(p + "mlp.b1", f);
            y.w2 = b.mat(p + "mlp.w2", f, d);
            y.b2 = b.vec(p + "mlp.b2", d);
            if (ln) {
                y.ln2w = b.vec(p + "ln2.weight", d);
                y.ln2b = b.vec(p + "ln2.bias", d);
            }
        }
        m.layers.push_back(std::move(y));
    }
    if (ln) {
        m.lnfw = b.vec("ln_f.weight", d);
        m.lnfb = b.vec("ln_f.bias", d);
    }
    m.head = b.mat("head", d, V);
    return m;
}

MlpLmModel mlpFrom(const Builder& b) {
    MlpLmModel m;
    m.window = b.metaInt("window", 4, 1, 64);
    m.act = b.act({"tanh", "relu"}, "tanh");
    const auto [V, e] = b.shape2("tok_emb");
    m.padId = b.metaInt("pad_id", 0, 0, int(V) - 1);
    m.tokEmb = b.mat("tok_emb", V, e);
    const int64_t h1 = b.shape2("w1").second;
    m.w1 = b.mat("w1", int64_t(m.window) * e, h1);
    m.b1 = b.vec("b1", h1);
    const int64_t h2 = b.shape2("w2").second;
    m.w2 = b.mat("w2", h1, h2);
    m.b2 = b.vec("b2", h2);
    m.head = b.mat("head", h2, V);
    m.headBias = b.vec("head_bias", V);
    return m;
}

MoeLmModel moeFrom(const Builder& b) {
    MoeLmModel m;
    m.window = b.metaInt("window", 4, 1, 64);
    const int L = b.metaInt("n_layers", 1, 1, 64);
    const int E = b.metaInt("n_experts", 2, 1, 256);
    m.topK = b.metaInt("top_k", 2, 1, E);
    const auto [V, e] = b.shape2("tok_emb");
    m.padId = b.metaInt("pad_id", 0, 0, int(V) - 1);
    m.tokEmb = b.mat("tok_emb", V, e);
    const int64_t d = b.shape2("w_in").second;
    m.wIn = b.mat("w_in", int64_t(m.window) * e, d);
    m.bIn = b.vec("b_in", d);
    for (int l = 0; l < L; ++l) {
        const std::string p = "layers." + std::to_string(l) + ".";
        MoeLayer y;
        y.router = b.mat(p + "router", d, E);
        if (b.has(p + "scale")) {
            y.scale = b.vec(p + "scale", 1)(0);
            if (!(y.scale > 0))
                throw InputError(b.path(), "tensor '" + p + "scale' must be positive");
        }
        for (int k = 0; k < E; ++k) {
            const std::string q = p + "experts." + std::to_string(k) + ".";
            MoeExpert x;
            const int64_t f = b.shape2(q + "w1").second;
            x.w1 = b.mat(q + "w1", d, f);
            x.b1 = b.vec(q + "b1", f);
            x.w2 = b.mat(q + "w2", f, d);
            x.b2 = b.vec(q + "b2", d);
            y.experts.push_back(std::move(x));
        }
        m.layers.push_back(std::move(y));
    }
    m.head = b.mat("head", d, V);
    m.headBias = b.vec("head_bias", V);
    return m;
}

void put(SafeTensorsFile& f, const std::string& name, const Mat& m, bool vector = false) {
    Tensor t;
    t.dtype = "F64";
    t.shape = vector ? std::vector<int64_t>{int64_t(m.size())} : std::vector<int64_t>{m.rows(), m.cols()};
    for (Eigen::Index r = 0; r < m.rows(); ++r)
        for (Eigen::Index c = 0; c < m.cols(); ++c)
            t.data.push_back(m(r, c));
    f.tensors[name] = std::move(t);
}

} // namespace

LoadedModel modelFromSafeTensors(const SafeTensorsFile& f, const std::string& path) {
    const Builder b(f, path);
    LoadedModel out;
    out.arch = b.meta("arch", "");
    if (out.arch == "transformer")
        out.transformer = transformerFrom(b);
    else if (out.arch == "mlp_lm")
        out.mlp = mlpFrom(b);
    else if (out.arch == "moe_lm")
        out.moe = moeFrom(b);
    else
        throw InputError(path, "__metadata__ 'arch' = '" + out.arch + "' (transformer, mlp_lm or moe_lm)");
    return out;
}

SafeTensorsFile toSafeTensors(const TransformerModel& m) {
    SafeTensorsFile f;
    const bool ln = m.norm == Norm::LayerNorm;
    f.metadata = {{"arch", "transformer"},
                  {"n_layers", std::to_string(m.layers.size())},
                  {"n_heads", std::to_string(m.nHeads)},
                  {"norm", ln ? "layernorm" : "none"},
                  {"act", actName(m.act)}};
    put(f, "tok_emb", m.tokEmb);
    put(f, "pos_emb", m.posEmb);
    for (size_t l = 0; l < m.layers.size(); ++l) {
        const std::string p = "layers." + std::to_string(l) + ".";
        const TransformerLayer& y = m.layers[l];
        put(f, p + "attn.wq", y.wq);
        put(f, p + "attn.wk", y.wk);
        put(f, p + "attn.wv", y.wv);
        put(f, p + "attn.wo", y.wo);
        if (ln) {
            put(f, p + "ln1.weight", y.ln1w, true);
            put(f, p + "ln1.bias", y.ln1b, true);
        }
        if (y.hasMlp) {
            put(f, p + "mlp.w1", y.w1);
            put(f, p + "mlp.b1", y.b1, true);
            put(f, p + "mlp.w2", y.w2);
            put(f, p + "mlp.b2", y.b2, true);
            if (ln) {
                put(f, p + "ln2.weight", y.ln2w, true);
                put(f, p + "ln2.bias", y.ln2b, true);
            }
        }
    }
    if (ln) {
        put(f, "ln_f.weight", m.lnfw, true);
        put(f, "ln_f.bias", m.lnfb, true);
    }
    put(f, "head", m.head);
    return f;
}

SafeTensorsFile toSafeTensors(const MlpLmModel& m) {
    SafeTensorsFile f;
    f.metadata = {{"arch", "mlp_lm"},
                  {"window", std::to_string(m.window)},
                  {"pad_id", std::to_string(m.padId)},
                  {"act", actName(m.act)}};
    put(f, "tok_emb", m.tokEmb);
    put(f, "w1", m.w1);
    put(f, "b1", m.b1, true);
    put(f, "w2", m.w2);
    put(f, "b2", m.b2, true);
    put(f, "head", m.head);
    put(f, "head_bias", m.headBias, true);
    return f;
}

SafeTensorsFile toSafeTensors(const MoeLmModel& m) {
    SafeTensorsFile f;
    f.metadata = {{"arch", "moe_lm"},
                  {"window", std::to_string(m.window)},
                  {"pad_id", std::to_string(m.padId)},
                  {"n_layers", std::to_string(m.nLayers())},
                  {"n_experts", std::to_string(m.nExperts())},
                  {"top_k", std::to_string(m.topK)}};
    put(f, "tok_emb", m.tokEmb);
    put(f, "w_in", m.wIn);
    put(f, "b_in", m.bIn, true);
    for (int l = 0; l < m.nLayers(); ++l) {
        const std::string p = "layers." + std::to_string(l) + ".";
        const MoeLayer& y = m.layers[size_t(l)];
        put(f, p + "router", y.router);
        put(f, p + "scale", Mat::Constant(1, 1, y.scale), true);
        for (size_t k = 0; k < y.experts.size(); ++k) {
            const std::string q = p + "experts." + std::to_string(k) + ".";
            put(f, q + "w1", y.experts[k].w1);
            put(f, q + "b1", y.experts[k].b1, true);
            put(f, q + "w2", y.experts[k].w2);
            put(f, q + "b2", y.experts[k].b2, true);
        }
    }
    put(f, "head", m.head);
    put(f, "head_bias", m.headBias, true);
    return f;
}

} // namespace pl::tinylm
