#include "ResultDocument.h"

#include "Errors.h"

#include <cmath>
#include <nlohmann/json.hpp>

namespace pl {

using json = nlohmann::ordered_json;

/// A member of `j`, or `fallback` when absent. Returns a reference: iterating a temporary
/// from json::value() would dangle.
static const json& field(const json& j, const char* key, const json& fallback) {
    auto it = j.find(key);
    return it == j.end() ? fallback : *it;
}

static json num(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

static double toNum(const json& j) {
    if (j.is_null())
        return std::numeric_limits<double>::quiet_NaN();
    return j.get<double>();
}

static json numArray(const std::vector<double>& v) {
    json a = json::array();
    for (double d : v)
        a.push_back(num(d));
    return a;
}

static std::vector<double> toNumArray(const json& j) {
    std::vector<double> v;
    v.reserve(j.size());
    for (const auto& e : j)
        v.push_back(toNum(e));
    return v;
}

static json paramJson(const ParamValue& v) {
    if (auto i = std::get_if<int64_t>(&v))
        return *i;
    if (auto d = std::get_if<double>(&v))
        return num(*d);
    if (auto b = std::get_if<bool>(&v))
        return *b;
    return std::get<std::string>(v);
}

static ParamValue paramFromJson(const json& j) {
    if (j.is_boolean())
        return j.get<bool>();
    if (j.is_number_integer())
        return j.get<int64_t>();
    if (j.is_number())
        return j.get<double>();
    if (j.is_string())
        return j.get<std::string>();
    return std::numeric_limits<double>::quiet_NaN();
}

void ResultDocument::setParams(const ParamSet& ps) {
    params.clear();
    for (const auto& s : ps.specs())
        params.emplace_back(s.key, ps.values().at(s.key));
}


std::string ResultDocument::toJson(int indent) const {
    json j;
    j["panel"] = panel;
    j["paperlab"] = paperlabVersion;
    j["seed"] = std::to_string(seed);
    json p = json::object();
    for (const auto& [k, v] : params)
        p[k] = paramJson(v);
    j["params"] = p;
    json in = json::array();
    for (const auto& r : inputs)
        in.push_back({{"path", r.path}, {"sha256", r.sha256}});
    j["inputs"] = in;
    json m = json::object();
    for (const auto& [k, v] : metrics)
        m[k] = num(v);
    j["metrics"] = m;
    json s = json::object();
    for (const auto& [k, v] : series)
        s[k] = {{"x", numArray(v.x)}, {"y", numArray(v.y)}, {"xlabel", v.xlabel}, {"ylabel", v.ylabel}};
    j["series"] = s;
    json mats = json::object();
    for (const auto& [k, v] : matrices) {
        json mj = {{"rows", v.rows}, {"cols", v.cols}, {"data", numArray(v.data)}};
        if (!v.rowLabels.empty())
            mj["row_labels"] = v.rowLabels;
        if (!v.colLabels.empty())
            mj["col_labels"] = v.colLabels;
        mats[k] = mj;
    }
    j["matrices"] = mats;
    json vec = json::object();
    for (const auto& [k, v] : vectors)
        vec[k] = numArray(v);
    j["vectors"] = vec;
    json lab = json::object();
    for (const auto& [k, v] : labels)
        lab[k] = v;
    j["labels"] = lab;
    json g = json::object();
    for (const auto& [k, v] : graphs) {
        json nodes = json::array();
        for (const auto& n : v.nodes) {
            json nj = {{"id", n.id}};
            if (!n.label.empty())
                nj["label"] = n.label;
            for (const auto& [ak, av] : n.attrs)
                nj[ak] = num(av);
            nodes.push_back(nj);
        }
        json edges = json::array();
        for (const auto& e : v.edges) {
            json ej = {{"source", e.source}, {"target", e.target}, {"weight", num(e.weight)}};
            for (const auto& [ak, av] : e.attrs)
                ej[ak] = num(av);
            edges.push_back(ej);
        }
        g[k] = {{"directed", v.directed}, {"nodes", nodes}, {"edges", edges}};
    }
    j["graphs"] = g;
    json c = json::array();
    for (const auto& cl : claims) {
        json cj = {{"id", cl.id},           {"statement", cl.statement}, {"holds", cl.holds},
                   {"observed", num(cl.observed)}, {"threshold", num(cl.threshold)}};
        if (!cl.detail.empty())
            cj["detail"] = cl.detail;
        c.push_back(cj);
    }
    j["claims"] = c;
    if (!notes.empty())
        j["notes"] = notes;
    j["elapsed_ms"] = num(elapsedMs);
    return j.dump(indent);
}

ResultDocument ResultDocument::fromJson(const std::string& text, const std::string& sourceName) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error& e) {
        throw InputError(sourceName, std::string("malformed JSON: ") + e.what(), 0, 0, int64_t(e.byte));
    } catch (const json::exception& e) {
        // e.g. out_of_range 406 "number overflow" (1e999): not a parse_error but just as malformed.
        throw InputError(sourceName, std::string("malformed JSON: ") + e.what());
    }
    try {
        const json emptyObject = json::object();
        const json emptyArray = json::array();
        ResultDocument d;
        d.panel = j.at("panel").get<std::string>();
        d.paperlabVersion = j.value("paperlab", "");
        d.seed = std::stoull(j.at("seed").get<std::string>());
        for (const auto& [k, v] : field(j, "params", emptyObject).items())
            d.params.emplace_back(k, paramFromJson(v));
        for (const auto& r : field(j, "inputs", emptyArray))
            d.inputs.push_back({r.at("path").get<std::string>(), r.value("sha256", "")});
        for (const auto& [k, v] : field(j, "metrics", emptyObject).items())
            d.metrics[k] = toNum(v);
        for (const auto& [k, v] : field(j, "series", emptyObject).items())
            d.series[k] = Series{toNumArray(v.at("x")), toNumArray(v.at("y")), v.value("xlabel", ""),
                                 v.value("ylabel", "")};
        for (const auto& [k, v] : field(j, "matrices", emptyObject).items()) {
            Matrix m;
            m.rows = v.at("rows").get<int64_t>();
            m.cols = v.at("cols").get<int64_t>();
            m.data = toNumArray(v.at("data"));
            // rows*cols is not formed before both are known to fit (a signed overflow otherwise).
            const int64_t n = int64_t(m.data.size());
            if (m.rows < 0 || m.cols < 0 || (m.cols != 0 && m.rows > n / m.cols) ||
                (m.cols == 0 ? n != 0 : n != m.rows * m.cols))
                throw InputError(sourceName, "matrix '" + k + "' has a data size that does not match rows*cols");
            m.rowLabels = v.value("row_labels", std::vector<std::string>{});
            m.colLabels = v.value("col_labels", std::vector<std::string>{});
            d.matrices[k] = std::move(m);
        }
        for (const auto& [k, v] : field(j, "vectors", emptyObject).items())
            d.vectors[k] = toNumArray(v);
        for (const auto& [k, v] : field(j, "labels", emptyObject).items())
            d.labels[k] = v.get<std::vector<int64_t>>();
        for (const auto& [k, v] : field(j, "graphs", emptyObject).items()) {
            Graph g;
            g.directed = v.value("directed", false);
            for (const auto& n : v.at("nodes")) {
                GraphNode gn;
                for (const auto& [ak, av] : n.items()) {
                    if (ak == "id")
                        gn.id = av.get<int64_t>();
                    else if (ak == "label")
                        gn.label = av.get<std::string>();
                    else if (av.is_number() || av.is_null())
                        gn.attrs[ak] = toNum(av);
                }
                g.nodes.push_back(std::move(gn));
            }
            for (const auto& e : v.at("edges")) {
                GraphEdge ge;
                for (const auto& [ak, av] : e.items()) {
                    if (ak == "source")
                        ge.source = av.get<int64_t>();
                    else if (ak == "target")
                        ge.target = av.get<int64_t>();
                    else if (ak == "weight")
                        ge.weight = toNum(av);
                    else if (av.is_number() || av.is_null())
                        ge.attrs[ak] = toNum(av);
                }
                g.edges.push_back(std::move(ge));
            }
            d.graphs[k] = std::move(g);
        }
        for (const auto& c : field(j, "claims", emptyArray))
            d.claims.push_back(Claim{c.at("id").get<std::string>(), c.value("statement", ""),
                                     c.at("holds").get<bool>(), toNum(c.value("observed", json(nullptr))),
                                     toNum(c.value("threshold", json(nullptr))), c.value("detail", "")});
        d.notes = j.value("notes", std::vector<std::string>{});
        d.elapsedMs = toNum(j.value("elapsed_ms", json(0.0)));
        return d;
    } catch (const InputError&) {
        throw;
    } catch (const std::exception& e) {
        throw InputError(sourceName, std::string("not a Paperlab result document: ") + e.what());
    }
}

} // namespace pl
