#include "ParamSpec.h"

#include "Errors.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace pl {

ParamSpec ParamSpec::integer(std::string key, std::string label, int64_t min, int64_t max, int64_t def,
                             std::string help, std::string unit) {
    ParamSpec s;
    s.key = std::move(key);
    s.label = std::move(label);
    s.type = ParamType::Int;
    s.min = double(min);
    s.max = double(max);
    s.defaultValue = def;
    s.help = std::move(help);
    s.unit = std::move(unit);
    return s;
}

ParamSpec ParamSpec::real(std::string key, std::string label, double min, double max, double def,
                          std::string help, std::string unit, bool logScale) {
    ParamSpec s;
    s.key = std::move(key);
    s.label = std::move(label);
    s.type = ParamType::Double;
    s.min = min;
    s.max = max;
    s.defaultValue = def;
    s.help = std::move(help);
    s.unit = std::move(unit);
    s.logScale = logScale;
    return s;
}

ParamSpec ParamSpec::boolean(std::string key, std::string label, bool def, std::string help) {
    ParamSpec s;
    s.key = std::move(key);
    s.label = std::move(label);
    s.type = ParamType::Bool;
    s.defaultValue = def;
    s.help = std::move(help);
    return s;
}

ParamSpec ParamSpec::choice(std::string key, std::string label, std::vector<std::string> choices,
                            std::string def, std::string help) {
    ParamSpec s;
    s.key = std::move(key);
    s.label = std::move(label);
    s.type = ParamType::Choice;
    s.choices = std::move(choices);
    s.defaultValue = std::move(def);
    s.help = std::move(help);
    return s;
}

static std::string fmtNumber(double v) {
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15)
        return std::to_string(int64_t(v));
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    // Prefer the shortest representation that round-trips.
    for (int prec = 1; prec <= 17; ++prec) {
        char b2[64];
        std::snprintf(b2, sizeof b2, "%.*g", prec, v);
        if (std::strtod(b2, nullptr) == v)
            return b2;
    }
    return buf;
}

std::string ParamSpec::allowedText() const {
    switch (type) {
    case ParamType::Int:
        return "an integer in [" + fmtNumber(min) + ", " + fmtNumber(max) + "]";
    case ParamType::Double:
        return "a number in [" + fmtNumber(min) + ", " + fmtNumber(max) + "]";
    case ParamType::Bool:
        return "true or false";
    case ParamType::Choice: {
        std::string s = "one of ";
        for (size_t i = 0; i < choices.size(); ++i)
            s += (i ? "|" : "") + choices[i];
        return s;
    }
    case ParamType::String:
        return "text";
    }
    return {};
}

ParamValue ParamSpec::parse(const std::string& text) const {
    auto bad = [&]() { return UsageError("parameter '" + key + "': '" + text + "' is not " + allowedText()); };
    switch (type) {
    case ParamType::Int: {
        int64_t v = 0;
        auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc() || p != text.data() + text.size()) {
            // Accept integral values written as 1e6.
            char* end = nullptr;
            double d = std::strtod(text.c_str(), &end);
            if (text.empty() || *end != '\0' || !std::isfinite(d) || d != std::floor(d) || std::fabs(d) > 9.0e18)
                throw bad();
            v = int64_t(d);
        }
        return validate(v);
    }
    case ParamType::Double: {
        char* end = nullptr;
        double d = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0')
            throw bad();
        return validate(d);
    }
    case ParamType::Bool:
        if (text == "true" || text == "1" || text == "yes" || text == "on")
            return true;
        if (text == "false" || text == "0" || text == "no" || text == "off")
            return false;
        throw bad();
    case ParamType::Choice:
    case ParamType::String:
        return validate(text);
    }
    throw bad();
}

ParamValue ParamSpec::validate(const ParamValue& v) const {
    auto bad = [&]() { return UsageError("parameter '" + key + "': " + toString(v) + " is not " + allowedText()); };
    switch (type) {
    case ParamType::Int: {
        int64_t i;
        if (auto p = std::get_if<int64_t>(&v))
            i = *p;
        else if (auto d = std::get_if<double>(&v); d && std::isfinite(*d) && *d == std::floor(*d))
            i = int64_t(*d);
        else
            throw bad();
        if (double(i) < min || double(i) > max)
            throw bad();
        return i;
    }
    case ParamType::Double: {
        double d;
        if (auto p = std::get_if<double>(&v))
            d = *p;
        else if (auto i = std::get_if<int64_t>(&v))
            d = double(*i);
        else
            throw bad();
        if (!std::isfinite(d) || d < min || d > max)
            throw bad();
        return d;
    }
    case ParamType::Bool:
        if (!std::holds_alternative<bool>(v))
            throw bad();
        return v;
    case ParamType::Choice: {
        auto s = std::get_if<std::string>(&v);
        if (!s)
            throw bad();
        for (const auto& c : choices)
            if (c == *s)
                return v;
        throw bad();
    }
    case ParamType::String:
        if (!std::holds_alternative<std::string>(v))
            throw bad();
        return v;
    }
    throw bad();
}

std::string toString(const ParamValue& v) {
    if (auto i = std::get_if<int64_t>(&v))
        return std::to_string(*i);
    if (auto d = std::get_if<double>(&v))
        return fmtNumber(*d);
    if (auto b = std::get_if<bool>(&v))
        return *b ? "true" : "false";
    return std::get<std::string>(v);
}

std::string toString(ParamType t) {
    switch (t) {
    case ParamType::Int:
        return "int";
    case ParamType::Double:
        return "double";
    case ParamType::Bool:
        return "bool";
    case ParamType::Choice:
        return "choice";
    case ParamType::String:
        return "string";
    }
    return "?";
}

ParamSet::ParamSet(const std::vector<ParamSpec>& specs) : m_specs(specs) {
    for (const auto& s : m_specs)
        m_values[s.key] = s.defaultValue;
}

const ParamSpec* ParamSet::spec(const std::string& key) const {
    for (const auto& s : m_specs)
        if (s.key == key)
            return &s;
    return nullptr;
}

static std::string knownKeys(const std::vector<ParamSpec>& specs) {
    std::string s;
    for (size_t i = 0; i < specs.size(); ++i)
        s += (i ? ", " : "") + specs[i].key;
    return s;
}

void ParamSet::setText(const std::string& key, const std::string& text) {
    const ParamSpec* s = spec(key);
    if (!s)
        throw UsageError("unknown parameter '" + key + "' (known: " + knownKeys(m_specs) + ")");
    m_values[key] = s->parse(text);
}

void ParamSet::set(const std::string& key, const ParamValue& v) {
    const ParamSpec* s = spec(key);
    if (!s)
        throw UsageError("unknown parameter '" + key + "' (known: " + knownKeys(m_specs) + ")");
    m_values[key] = s->validate(v);
}

const ParamValue& ParamSet::get(const std::string& key) const {
    auto it = m_values.find(key);
    if (it == m_values.end())
        throw UsageError("unknown parameter '" + key + "'");
    return it->second;
}

int64_t ParamSet::getInt(const std::string& key) const {
    const auto& v = get(key);
    if (auto i = std::get_if<int64_t>(&v))
        return *i;
    throw UsageError("parameter '" + key + "' is not an integer");
}

double ParamSet::getDouble(const std::string& key) const {
    const auto& v = get(key);
    if (auto d = std::get_if<double>(&v))
        return *d;
    if (auto i = std::get_if<int64_t>(&v))
        return double(*i);
    throw UsageError("parameter '" + key + "' is not a number");
}

bool ParamSet::getBool(const std::string& key) const {
    const auto& v = get(key);
    if (auto b = std::get_if<bool>(&v))
        return *b;
    throw UsageError("parameter '" + key + "' is not a boolean");
}

const std::string& ParamSet::getString(const std::string& key) const {
    const auto& v = get(key);
    if (auto s = std::get_if<std::string>(&v))
        return *s;
    throw UsageError("parameter '" + key + "' is not text");
}

} // namespace pl
