#include "ResultKeyRecorder.h"

#include <algorithm>

namespace pl::fig {

namespace {

thread_local ResultKeyRecorder* t_current = nullptr;

void addUnique(std::vector<std::string>& out, std::string s) {
    if (std::find(out.begin(), out.end(), s) == out.end())
        out.push_back(std::move(s));
}

} // namespace

const char* toString(ResultSection section) {
    switch (section) {
    case ResultSection::Metric:
        return "metrics";
    case ResultSection::Series:
        return "series";
    case ResultSection::Matrix:
        return "matrices";
    case ResultSection::Vector:
        return "vectors";
    case ResultSection::Labels:
        return "labels";
    case ResultSection::Graph:
        return "graphs";
    case ResultSection::Param:
        return "params";
    }
    return "?";
}

ResultKeyRecorder::ResultKeyRecorder() : m_outer(t_current) {
    t_current = this;
}

ResultKeyRecorder::~ResultKeyRecorder() {
    t_current = m_outer;
}

std::string ResultKeyRecorder::describe(ResultSection section, const std::string& key) {
    return std::string(toString(section)) + " '" + key + "'";
}

std::vector<std::string> ResultKeyRecorder::missing() const {
    std::vector<std::string> out;
    for (const auto& l : m_lookups)
        if (!l.found && !l.optional)
            addUnique(out, describe(l.section, l.key));
    return out;
}

std::vector<std::string> ResultKeyRecorder::missingOptional() const {
    std::vector<std::string> out;
    for (const auto& l : m_lookups)
        if (!l.found && l.optional)
            addUnique(out, describe(l.section, l.key));
    return out;
}

std::vector<std::string> ResultKeyRecorder::optionalKeys() const {
    std::vector<std::string> out;
    for (const auto& l : m_lookups)
        if (l.optional)
            addUnique(out, describe(l.section, l.key));
    return out;
}

void ResultKeyRecorder::note(ResultSection section, const std::string& key, bool found, bool optional) {
    if (t_current)
        t_current->m_lookups.push_back({section, key, found, optional});
}

} // namespace pl::fig
