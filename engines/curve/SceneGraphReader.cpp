#include "curve/SceneGraphReader.h"

#include "core/Errors.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

namespace pl::curve {

namespace {

using json = nlohmann::json;

constexpr size_t kMaxObjects = 64;
constexpr size_t kMaxScenes = 100000;
constexpr size_t kMaxLineBytes = 1 << 20;

struct LineContext {
    const std::string& file;
    int64_t line;
    [[noreturn]] void fail(const std::string& field, const std::string& reason) const {
        throw InputError(file, (field.empty() ? "" : "field '" + field + "': ") + reason, line);
    }
};

double number(const json& o, const char* key, const std::string& path, const LineContext& c, bool required,
              double limit) {
    auto it = o.find(key);
    if (it == o.end()) {
        if (required)
            c.fail(path + "." + key, "missing");
        return 0.0;
    }
    if (!it->is_number())
        c.fail(path + "." + key, "expected a number");
    const double v = it->get<double>();
    if (!std::isfinite(v))
        c.fail(path + "." + key, "not a finite number");
    if (std::abs(v) > limit)
        c.fail(path + "." + key, "magnitude above " + std::to_string(int64_t(limit)));
    return v;
}

std::string text(const json& o, const char* key, const std::string& path, const LineContext& c) {
    auto it = o.find(key);
    if (it == o.end())
        c.fail(path + "." + key, "missing");
    if (!it->is_string())
        c.fail(path + "." + key, "expected a string");
    return it->get<std::string>();
}

Scene parseScene(const json& j, std::map<std::string, int>& envIds, std::vector<std::string>& envNames,
                 const LineContext& c) {
    if (!j.is_object())
        c.fail("", "each line must be one JSON object (a scene)");
    Scene sc;
    const std::string env = text(j, "env", "scene", c);
    if (env.empty() || env.size() > 64)
        c.fail("scene.env", "must have 1 to 64 characters");
    if (!envIds.count(env)) {
        envIds[env] = int(envNames.size());
        envNames.push_back(env);
    }
    sc.env = envIds[env];
    if (j.contains("split")) {
        const std::string split = text(j, "split", "scene", c);
        if (!splitFromString(split, &sc.split))
            c.fail("scene.split", "unknown split '" + split + "' (train, test_id, test_ood, target)");
    }
    auto objs = j.find("objects");
    if (objs == j.end())
        c.fail("scene.objects", "missing");
    if (!objs->is_array())
        c.fail("scene.objects", "expected an array");
    if (objs->size() > kMaxObjects)
        c.fail("scene.objects", "more than " + std::to_string(kMaxObjects) + " objects");
    std::map<std::string, int> ids;
    int agents = 0, weather = 0;
    for (size_t i = 0; i < objs->size(); ++i) {
        const json& o = (*objs)[i];
        const std::string path = "objects[" + std::to_string(i) + "]";
        if (!o.is_object())
            c.fail(path, "expected an object");
        SceneObject so;
        so.id = text(o, "id", path, c);
        if (so.id.empty() || so.id.size() > 64)
            c.fail(path + ".id", "must have 1 to 64 characters");
        if (ids.count(so.id))
            c.fail(path + ".id", "duplicate id '" + so.id + "'");
        const std::string type = text(o, "type", path, c);
        if (!objectTypeFromString(type, &so.type))
            c.fail(path + ".type",
                   "unknown type '" + type + "' (car, pedestrian, cyclist, background, weather)");
        const bool geometric = so.type != ObjectType::Weather;
        so.x = number(o, "x", path, c, geometric, 1e4);
        so.y = number(o, "y", path, c, geometric, 1e4);
        so.vx = number(o, "vx", path, c, isAgent(so.type), 1e3);
        so.vy = number(o, "vy", path, c, isAgent(so.type), 1e3);
        if (!isAgent(so.type) && (so.vx != 0 || so.vy != 0))
            c.fail(path + ".vx", "only agents move (background and weather have no velocity)");
        so.rain = number(o, "rain", path, c, so.type == ObjectType::Weather, 1.0);
        if (so.type == ObjectType::Weather) {
            if (so.rain != 0 && so.rain != 1)
                c.fail(path + ".rain", "expected 0 or 1");
            if (++weather > 1)
                c.fail(path + ".type", "more than one weather object");
        } else if (o.contains("rain")) {
            c.fail(path + ".rain", "only the weather object has 'rain'");
        }
        agents += isAgent(so.type);
        ids[so.id] = int(sc.objects.size());
        sc.objects.push_back(std::move(so));
    }
    if (agents < 2)
        c.fail("scene.objects", "a scene needs at least 2 agents (car, pedestrian, cyclist)");
    if (j.contains("relations")) {
        const json& rels = j["relations"];
        if (!rels.is_array())
            c.fail("scene.relations", "expected an array");
        for (size_t i = 0; i < rels.size(); ++i) {
            const json& r = rels[i];
            const std::string path = "relations[" + std::to_string(i) + "]";
            if (!r.is_object())
                c.fail(path, "expected an object");
            const std::string s = text(r, "source", path, c), t = text(r, "target", path, c);
            const std::string rel = text(r, "relation", path, c);
            if (!ids.count(s))
                c.fail(path + ".source", "unknown object id '" + s + "'");
            if (!ids.count(t))
                c.fail(path + ".target", "unknown object id '" + t + "'");
            SceneRelation sr{ids[s], ids[t], relationFromString(rel)};
            if (sr.relation < 0)
                c.fail(path + ".relation", "unknown relation '" + rel + "' (none, approaching, following)");
            if (sr.source == sr.target)
                c.fail(path, "a relation needs two different objects");
            if (!isAgent(sc.objects[size_t(sr.source)].type) || !isAgent(sc.objects[size_t(sr.target)].type))
                c.fail(path, "relations are labelled between agents only");
            for (const SceneRelation& o : sc.relations)
                if (o.source == sr.source && o.target == sr.target)
                    c.fail(path, "pair '" + s + "' -> '" + t + "' labelled twice");
            if (sr.relation != Relation::None)
                sc.relations.push_back(sr);
        }
    }
    return sc;
}

} // namespace

SceneSet parseSceneGraphLines(const std::string& text, const std::string& fileName) {
    SceneSet set;
    std::map<std::string, int> envIds;
    size_t pos = 0;
    int64_t line = 0;
    while (pos < text.size()) {
        ++line;
        size_t end = text.find('\n', pos);
        if (end == std::string::npos)
            end = text.size();
        std::string ln = text.substr(pos, end - pos);
        pos = end + 1;
        if (!ln.empty() && ln.back() == '\r')
            ln.pop_back();
        const size_t first = ln.find_first_not_of(" \t");
        if (first == std::string::npos || ln[first] == '#')
            continue;
        const LineContext c{fileName, line};
        if (ln.size() > kMaxLineBytes)
            c.fail("", "line longer than 1 MiB");
        json j;
        try {
            j = json::parse(ln);
        } catch (const json::parse_error& e) {
            throw InputError(fileName, std::string("not valid JSON (") + e.what() + ")", line, 0,
                             int64_t(e.byte));
        } catch (const json::exception& e) { // e.g. a number out of the range of a double
            throw InputError(fileName, std::string("not usable JSON (") + e.what() + ")", line);
        }
        if (set.scenes.size() >= kMaxScenes)
            c.fail("", "more than " + std::to_string(kMaxScenes) + " scenes");
        try {
            set.scenes.push_back(parseScene(j, envIds, set.envNames, c));
        } catch (const json::exception& e) { // type errors the checks above did not anticipate
            c.fail("", e.what());
        }
    }
    if (set.scenes.empty())
        throw InputError(fileName, "no scenes (expected one JSON object per line)");
    return set;
}

SceneSet readSceneGraphFile(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f)
        throw InputError(path, "cannot open file");
    f.seekg(0, std::ios::end);
    const auto size = f.tellg();
    if (size > std::streamoff(512) * 1024 * 1024)
        throw InputError(path, "file larger than 512 MiB");
    f.seekg(0);
    std::ostringstream ss;
    ss << f.rdbuf();
    return parseSceneGraphLines(ss.str(), path);
}

} // namespace pl::curve
