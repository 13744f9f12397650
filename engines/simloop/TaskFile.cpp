#include "simloop/TaskFile.h"

#include "core/Errors.h"
#include "core/Numeric.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

namespace pl::simloop {

namespace {

using json = nlohmann::json;

/// 1-based line of the first occurrence of "key" (as a JSON member name) in \a text; 1 if absent.
int64_t lineOfKey(const std::string& text, const std::string& key) {
    const size_t pos = text.find("\"" + key + "\"");
    if (pos == std::string::npos)
        return 1;
    return 1 + int64_t(std::count(text.begin(), text.begin() + long(pos), '\n'));
}

struct Reader {
    const std::string& text;
    const std::string& name;
    [[noreturn]] void fail(const std::string& key, const std::string& reason) const {
        throw InputError(name, reason, lineOfKey(text, key));
    }
    double number(const json& v, const std::string& key) const {
        if (!v.is_number())
            fail(key, "'" + key + "' must be a number");
        const double x = v.get<double>();
        if (!std::isfinite(x))
            fail(key, "'" + key + "' must be finite");
        return x;
    }
    std::vector<double> coefficients(const json& v, const std::string& key) const {
        if (!v.is_array() || v.empty())
            fail(key, "'" + key + "' must be a non-empty array of numbers (highest power first)");
        if (v.size() > 12)
            fail(key, "'" + key + "': at most 12 coefficients (plant order ≤ 11)");
        std::vector<double> c;
        for (const auto& x : v)
            c.push_back(number(x, key));
        return c;
    }
};

} // namespace

std::shared_ptr<const TaskInput> parseTaskText(const std::string& text, const std::string& name) {
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        const size_t at = std::min(text.size(), size_t(e.byte));
        const int64_t line = 1 + int64_t(std::count(text.begin(), text.begin() + long(at), '\n'));
        throw InputError(name, std::string("malformed JSON: ") + e.what(), line);
    } catch (const json::exception& e) {
        // A number beyond a double's range ("number overflow parsing '1e999'"): the line of the
        // quoted literal where it can be found, else the first line.
        const std::string what = e.what();
        const size_t q0 = what.find('\''), q1 = q0 == std::string::npos ? q0 : what.find('\'', q0 + 1);
        const size_t at = q1 == std::string::npos ? std::string::npos : text.find(what.substr(q0 + 1, q1 - q0 - 1));
        const int64_t line =
            at == std::string::npos ? 1 : 1 + int64_t(std::count(text.begin(), text.begin() + long(at), '\n'));
        throw InputError(name, "malformed JSON: " + what, line);
    }
    const Reader r{text, name};
    if (!doc.is_object())
        throw InputError(name, "a task file is a JSON object {task, plant, u_max, t_end, specs, budget}", 1);
    auto out = std::make_shared<TaskInput>();
    out->path = name;
    out->kind = "task-json";
    static const std::set<std::string> known{"task", "plant", "u_max", "t_end", "specs", "budget"};
    for (const auto& [k, v] : doc.items())
        if (!known.count(k))
            r.fail(k, "unknown member '" + k + "' (task, plant, u_max, t_end, specs, budget)");
    if (!doc.contains("task") || !doc["task"].is_string())
        throw InputError(name, "'task' (pid, robertson, energy, identify) is required",
                         lineOfKey(text, "task"));
    out->task = doc["task"].get<std::string>();
    if (out->task != "pid" && out->task != "robertson" && out->task != "energy" && out->task != "identify")
        r.fail("task", "unknown task '" + out->task + "' (pid, robertson, energy, identify)");
    if (out->task != "pid")
        for (const char* k : {"plant", "u_max", "specs"})
            if (doc.contains(k))
                r.fail(k, std::string("'") + k + "' applies to task = pid only");
    if (doc.contains("plant")) {
        const json& p = doc["plant"];
        if (!p.is_object() || !p.contains("num") || !p.contains("den"))
            r.fail("plant", "'plant' must be an object {num: [...], den: [...]}");
        for (const auto& [k, v] : p.items())
            if (k != "num" && k != "den")
                r.fail(k, "unknown plant key '" + k + "' (num, den)");
        out->pid.num = r.coefficients(p["num"], "num");
        out->pid.den = r.coefficients(p["den"], "den");
        if (out->pid.den[0] == 0)
            r.fail("den", "the leading denominator coefficient must not be zero");
        while (out->pid.num.size() > 1 && out->pid.num[0] == 0)
            out->pid.num.erase(out->pid.num.begin());
        if (out->pid.num.size() >= out->pid.den.size())
            r.fail("num", "improper plant: the numerator degree (" + std::to_string(out->pid.num.size() - 1) +
                              ") must be below the denominator degree (" +
                              std::to_string(out->pid.den.size() - 1) + ")");
        if (openLoopUnstable(out->pid.den))
            out->warnings.push_back("warning: the open-loop plant is unstable (a pole with Re ≥ 0); the loop "
                                    "may still be stabilised by feedback");
    }
    if (doc.contains("u_max")) {
        out->pid.uMax = r.number(doc["u_max"], "u_max");
        if (out->pid.uMax < 0)
            r.fail("u_max", "'u_max' must be ≥ 0 (0 = no actuator limit)");
    }
    if (doc.contains("t_end")) {
        const double t = r.number(doc["t_end"], "t_end");
        if (!(t > 0) || t > 1e7)
            r.fail("t_end", "'t_end' must be in (0, 1e7]");
        out->tEnd = t;
        out->pid.tEnd = t;
    }
    if (doc.contains("specs")) {
        const json& s = doc["specs"];
        if (!s.is_object())
            r.fail("specs", "'specs' must be an object {overshoot, settling_time}");
        for (const auto& [k, v] : s.items()) {
            if (k == "overshoot") {
                out->pid.overshootSpec = r.number(v, k);
                if (!(out->pid.overshootSpec > 0))
                    r.fail(k, "'overshoot' must be > 0 (a fraction, 0.1 = 10 %)");
            } else if (k == "settling_time") {
                out->pid.settlingSpec = r.number(v, k);
                if (!(out->pid.settlingSpec > 0))
                    r.fail(k, "'settling_time' must be > 0");
            } else {
                r.fail(k, "unknown spec key '" + k + "' (overshoot, settling_time)");
            }
        }
    }
    if (doc.contains("budget")) {
        const double b = r.number(doc["budget"], "budget");
        if (b < 0)
            r.fail("budget", "negative budget " + formatSignificant(b) + " (total integrator steps ≥ 0)");
        if (b > 1e9 || b != std::floor(b))
            r.fail("budget", "'budget' must be a whole number of steps ≤ 1e9");
        out->budget = long(b);
    }
    if (out->task == "pid" && out->pid.tEnd / out->pid.outputDt > 200000)
        r.fail("t_end", "'t_end' gives more than 200000 output points at output_dt = 0.05");
    out->summary = out->task + " task" +
                   (out->task == "pid" ? ", plant of order " + std::to_string(out->pid.den.size() - 1) : "") +
                   (out->warnings.empty() ? "" : " (open loop unstable)");
    return out;
}

std::shared_ptr<const TaskInput> loadTaskFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, "cannot open the file");
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    if (text.size() > (1u << 20))
        throw InputError(path, "task file larger than 1 MiB", 1);
    return parseTaskText(text, path);
}

} // namespace pl::simloop
