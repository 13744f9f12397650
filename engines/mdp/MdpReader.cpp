#include "mdp/MdpReader.h"

#include "core/Errors.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

namespace pl::mdp {

namespace {

using json = nlohmann::ordered_json; // keeps the file order of "labels"

/// Lines of the elements of each top-level member ("P" -> line of its i-th element), found by a
/// scan of the raw text that tracks strings, nesting and newlines. nlohmann-json keeps no positions.
using ElementLines = std::map<std::string, std::vector<int64_t>>;

ElementLines scanElementLines(const std::string& text) {
    ElementLines out;
    int depth = 0;
    int64_t line = 1;
    bool inString = false, escape = false, expectValue = false;
    std::string current, lastString;
    size_t stringStart = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n')
            ++line;
        if (inString) {
            if (escape)
                escape = false;
            else if (c == '\\')
                escape = true;
            else if (c == '"') {
                inString = false;
                lastString = text.substr(stringStart, i - stringStart);
            }
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
            continue;
        // A value or key starting directly inside a top-level member's array or object.
        if (depth == 2 && !current.empty() && c != ']' && c != '}' && c != ',' && c != ':' && expectValue) {
            out[current].push_back(line);
            expectValue = false;
        }
        if (c == '"') {
            inString = true;
            stringStart = i + 1;
        } else if (c == ':' && depth == 1) {
            current = lastString;
        } else if (c == '[' || c == '{') {
            ++depth;
            if (depth == 2)
                expectValue = true;
        } else if (c == ']' || c == '}') {
            --depth;
            if (depth == 1)
                current.clear();
        } else if (c == ',' && depth == 2) {
            expectValue = true;
        }
    }
    return out;
}

struct Ctx {
    const std::string& file;
    const ElementLines& lines;
    [[noreturn]] void fail(const std::string& member, size_t index, const std::string& reason) const {
        int64_t line = 0;
        auto it = lines.find(member);
        if (it != lines.end() && index < it->second.size())
            line = it->second[index];
        throw InputError(file, reason, line);
    }
    [[noreturn]] void failTop(const std::string& reason) const { throw InputError(file, reason, 1); }
};

int countField(const json& j, const char* key, int maxValue, const Ctx& c) {
    auto it = j.find(key);
    if (it == j.end())
        c.failTop(std::string("field '") + key + "' missing");
    if (!it->is_number_integer())
        c.failTop(std::string("field '") + key + "' must be a positive integer");
    const int64_t v = it->get<int64_t>();
    if (v < 1)
        c.failTop(std::string("field '") + key + "' must be a positive integer");
    if (v > maxValue)
        c.failTop(std::string("field '") + key + "' = " + std::to_string(v) + " is above the limit of " +
                  std::to_string(maxValue));
    return int(v);
}

int idAt(const json& e, size_t k, int limit, const char* what, const std::string& member, size_t i,
         const Ctx& c) {
    if (!e[k].is_number_integer())
        c.fail(member, i, member + "[" + std::to_string(i) + "]: " + what + " must be an integer id");
    const int64_t v = e[k].get<int64_t>();
    if (v < 0 || v >= limit)
        c.fail(member, i,
               member + "[" + std::to_string(i) + "]: unknown " + what + " id " + std::to_string(v) +
                   " (valid 0.." + std::to_string(limit - 1) + ")");
    return int(v);
}

double numberAt(const json& e, size_t k, const std::string& member, size_t i, const Ctx& c) {
    if (!e[k].is_number())
        c.fail(member, i, member + "[" + std::to_string(i) + "]: expected a number");
    const double v = e[k].get<double>();
    if (!std::isfinite(v) || std::fabs(v) > 1e12)
        c.fail(member, i, member + "[" + std::to_string(i) + "]: not a finite number of magnitude <= 1e12");
    return v;
}

const json* arrayMember(const json& j, const char* key, bool required, const Ctx& c) {
    auto it = j.find(key);
    if (it == j.end()) {
        if (required)
            c.failTop(std::string("field '") + key + "' missing");
        return nullptr;
    }
    if (!it->is_array())
        c.failTop(std::string("field '") + key + "' must be an array");
    return &*it;
}

const json& tuple(const json& arr, size_t i, size_t n, const std::string& member, const char* shape,
                  const Ctx& c) {
    const json& e = arr[i];
    if (!e.is_array() || e.size() != n)
        c.fail(member, i, member + "[" + std::to_string(i) + "]: expected " + shape);
    return e;
}

void readTransitions(const json& j, Mdp& m, const Ctx& c) {
    const json& P = *arrayMember(j, "P", true, c);
    std::vector<size_t> firstEntry(size_t(m.states) * size_t(m.actions), SIZE_MAX);
    for (size_t i = 0; i < P.size(); ++i) {
        const json& e = tuple(P, i, 4, "P", "[s, a, s', p]", c);
        const int s = idAt(e, 0, m.states, "state", "P", i, c),
                  a = idAt(e, 1, m.actions, "action", "P", i, c);
        const int n = idAt(e, 2, m.states, "state", "P", i, c);
        const double p = numberAt(e, 3, "P", i, c);
        if (p < 0)
            c.fail("P", i, "P[" + std::to_string(i) + "]: negative probability " + std::to_string(p));
        const size_t r = size_t(s) * size_t(m.actions) + size_t(a);
        if (firstEntry[r] == SIZE_MAX)
            firstEntry[r] = i;
        m.rows[r].push_back({n, p});
    }
    for (int s = 0; s < m.states; ++s)
        for (int a = 0; a < m.actions; ++a) {
            const size_t r = size_t(s) * size_t(m.actions) + size_t(a);
            double sum = 0;
            for (const Transition& t : m.rows[r])
                sum += t.p;
            if (std::fabs(sum - 1) > 1e-9) {
                const std::string what = "row (s=" + std::to_string(s) + ", a=" + std::to_string(a) +
                                         ") of P sums to " + std::to_string(sum) + ", not 1 (tolerance 1e-9)";
                if (firstEntry[r] == SIZE_MAX)
                    c.failTop(what + ": it has no entries");
                c.fail("P", firstEntry[r], what);
            }
        }
    m.normalise();
}

void readRewards(const json& j, Mdp& m, const Ctx& c) {
    m.reward = Eigen::MatrixXd::Zero(m.states, m.actions);
    const json* R = arrayMember(j, "R", true, c);
    for (size_t i = 0; i < R->size(); ++i) {
        const json& e = tuple(*R, i, 3, "R", "[s, a, r]", c);
        const int s = idAt(e, 0, m.states, "state", "R", i, c),
                  a = idAt(e, 1, m.actions, "action", "R", i, c);
        m.reward(s, a) = numberAt(e, 2, "R", i, c);
    }
}

void readLabels(const json& j, Mdp& m, const Ctx& c) {
    auto it = j.find("labels");
    if (it == j.end())
        return;
    if (!it->is_object())
        c.failTop("field 'labels' must be an object {name: [states]}");
    size_t k = 0;
    for (auto l = it->begin(); l != it->end(); ++l, ++k) {
        if (!l.value().is_array())
            c.fail("labels", k, "labels." + l.key() + ": expected an array of state ids");
        std::vector<char> set(size_t(m.states), 0);
        for (const json& v : l.value()) {
            if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() >= m.states)
                c.fail("labels", k, "labels." + l.key() + ": unknown state id " + v.dump());
            set[size_t(v.get<int64_t>())] = 1;
        }
        m.labels[l.key()] = set;
    }
}

void readPolicy(const json& j, Mdp& m, const Ctx& c) {
    const json* pol = arrayMember(j, "policy", false, c);
    if (!pol)
        return;
    m.policy = Eigen::MatrixXd::Zero(m.states, m.actions);
    std::vector<size_t> first(size_t(m.states), SIZE_MAX);
    for (size_t i = 0; i < pol->size(); ++i) {
        const json& e = tuple(*pol, i, 3, "policy", "[s, a, p]", c);
        const int s = idAt(e, 0, m.states, "state", "policy", i, c);
        const int a = idAt(e, 1, m.actions, "action", "policy", i, c);
        const double p = numberAt(e, 2, "policy", i, c);
        if (p < 0)
            c.fail("policy", i, "policy[" + std::to_string(i) + "]: negative probability");
        if (first[size_t(s)] == SIZE_MAX)
            first[size_t(s)] = i;
        m.policy(s, a) += p;
    }
    for (int s = 0; s < m.states; ++s) {
        const double sum = m.policy.row(s).sum();
        if (std::fabs(sum - 1) > 1e-9) {
            const std::string what = "policy row s=" + std::to_string(s) + " sums to " + std::to_string(sum) +
                                     ", not 1 (tolerance 1e-9)";
            if (first[size_t(s)] == SIZE_MAX)
                c.failTop(what + ": it has no entries");
            c.fail("policy", first[size_t(s)], what);
        }
    }
}

void readCritic(const json& j, Mdp& m, const Ctx& c) {
    const json* h = arrayMember(j, "critic", false, c);
    if (!h)
        return;
    if (int(h->size()) != m.states)
        c.failTop("field 'critic' has " + std::to_string(h->size()) + " values, expected one per state (" +
                  std::to_string(m.states) + ")");
    m.critic.resize(m.states);
    for (size_t i = 0; i < h->size(); ++i) {
        if (!(*h)[i].is_number() || !std::isfinite((*h)[i].get<double>()))
            c.fail("critic", i, "critic[" + std::to_string(i) + "]: expected a finite number");
        m.critic(int(i)) = (*h)[i].get<double>();
    }
}

} // namespace

Mdp parseMdpJson(const std::string& text, const std::string& fileName) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::parse_error& e) {
        int64_t line = 1;
        for (size_t i = 0; i < std::min(text.size(), size_t(e.byte)); ++i)
            line += text[i] == '\n';
        throw InputError(fileName, std::string("not valid JSON (") + e.what() + ")", line, 0,
                         int64_t(e.byte));
    } catch (const json::exception& e) {
        throw InputError(fileName, std::string("not usable JSON (") + e.what() + ")", 1);
    }
    const ElementLines lines = scanElementLines(text);
    const Ctx c{fileName, lines};
    if (!j.is_object())
        c.failTop("expected one JSON object {states, actions, P, R, labels}");
    try {
        Mdp m;
        m.states = countField(j, "states", kMaxFileStates, c);
        m.actions = countField(j, "actions", kMaxFileActions, c);
        m.rows.assign(size_t(m.states) * size_t(m.actions), {});
        readTransitions(j, m, c);
        readRewards(j, m, c);
        readLabels(j, m, c);
        readPolicy(j, m, c);
        readCritic(j, m, c);
        m.name = std::to_string(m.states) + "-state, " + std::to_string(m.actions) + "-action MDP";
        return m;
    } catch (const json::exception& e) { // type errors the checks above did not anticipate
        throw InputError(fileName, e.what(), 1);
    }
}

Mdp readMdpFile(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f)
        throw InputError(path, "cannot open file");
    std::ostringstream ss;
    ss << f.rdbuf();
    if (ss.str().size() > (size_t(64) << 20))
        throw InputError(path, "file larger than 64 MiB");
    return parseMdpJson(ss.str(), path);
}

} // namespace pl::mdp
