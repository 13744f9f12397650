#include "gridworld/RecipeBook.h"

#include "core/Errors.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <functional>
#include <sstream>

namespace pl::gridworld {

const char* skillName(Skill s) {
    return s == Skill::Collect ? "collect" : s == Skill::Craft ? "craft" : "smelt";
}

int RecipeBook::index(const std::string& name) const {
    for (size_t i = 0; i < items.size(); ++i)
        if (items[i].name == name)
            return int(i);
    return -1;
}

std::vector<int> RecipeBook::prerequisites(int i) const {
    std::vector<int> out;
    auto add = [&](int j) {
        if (j >= 0 && std::find(out.begin(), out.end(), j) == out.end())
            out.push_back(j);
    };
    for (const auto& [j, q] : items[size_t(i)].inputs)
        add(j);
    add(items[size_t(i)].tool);
    add(items[size_t(i)].station);
    return out;
}

std::vector<char> RecipeBook::closure(int i) const {
    std::vector<char> in(items.size(), 0);
    std::vector<int> stack{i};
    while (!stack.empty()) {
        const int v = stack.back();
        stack.pop_back();
        if (in[size_t(v)])
            continue;
        in[size_t(v)] = 1;
        for (int p : prerequisites(v))
            stack.push_back(p);
    }
    return in;
}

int RecipeBook::subgoals(int i) const {
    int n = 0;
    for (char c : closure(i))
        n += c;
    return n;
}

std::vector<int> RecipeBook::depths() const {
    std::vector<int> d(items.size(), -1);
    std::function<int(int)> of = [&](int i) {
        if (d[size_t(i)] >= 0)
            return d[size_t(i)];
        d[size_t(i)] = 0; // acyclic books only; guards a cycle against endless recursion
        int best = 0;
        for (int p : prerequisites(i))
            best = std::max(best, 1 + of(p));
        return d[size_t(i)] = best;
    };
    for (size_t i = 0; i < items.size(); ++i)
        of(int(i));
    return d;
}

std::string RecipeBook::collectTiles() const {
    std::string out;
    for (const Item& it : items)
        if (it.skill == Skill::Collect && out.find(it.tile) == std::string::npos)
            out += it.tile;
    return out;
}

namespace {

/// Lines of the `"name"` keys (one per item, in order) and of the task strings, from a scan of the
/// raw text that tracks strings and nesting (nlohmann-json keeps no positions).
struct Lines {
    std::vector<int> names, tasks;
};

Lines scanLines(const std::string& text) {
    Lines out;
    int line = 1, depth = 0, tasksDepth = -1;
    for (size_t i = 0; i < text.size(); ++i) {
        const char ch = text[i];
        if (ch == '\n')
            ++line;
        else if (ch == '{' || ch == '[')
            ++depth;
        else if (ch == '}' || ch == ']')
            --depth;
        if (ch != '"')
            continue;
        const int at = line;
        std::string s;
        for (++i; i < text.size() && text[i] != '"'; ++i) {
            if (text[i] == '\\')
                ++i;
            else
                s += text[i];
            if (i < text.size() && text[i] == '\n')
                ++line;
        }
        size_t j = i + 1;
        while (j < text.size() && std::isspace(static_cast<unsigned char>(text[j])))
            ++j;
        const bool key = j < text.size() && text[j] == ':';
        if (tasksDepth >= 0 && depth <= tasksDepth)
            tasksDepth = -1;
        if (key && s == "name")
            out.names.push_back(at);
        else if (key && s == "tasks")
            tasksDepth = depth;
        else if (!key && tasksDepth >= 0 && depth == tasksDepth + 1)
            out.tasks.push_back(at);
    }
    return out;
}

struct Reader {
    const std::string& file;
    const Lines& lines;
    [[noreturn]] void fail(const std::string& reason, int line) const {
        throw InputError(file, reason, line);
    }
    int itemLine(size_t i) const { return i < lines.names.size() ? lines.names[i] : 1; }
    int taskLine(size_t i) const { return i < lines.tasks.size() ? lines.tasks[i] : 1; }
    std::string optString(const nlohmann::json& o, const char* k, int line) const {
        if (!o.contains(k) || o[k].is_null())
            return {};
        if (!o[k].is_string())
            fail(std::string("\"") + k + "\" must be a string", line);
        return o[k].get<std::string>();
    }
    int ref(const RecipeBook& b, const std::string& name, const std::string& what, const Item& it) const {
        if (name.empty())
            return -1;
        const int j = b.index(name);
        if (j < 0)
            fail("unknown item '" + name + "' (" + what + " of '" + it.name + "')", it.line);
        return j;
    }
};

Item readItem(const Reader& rd, const nlohmann::json& o, int line) {
    if (!o.is_object())
        rd.fail("each entry of \"items\" must be an object", line);
    Item it;
    it.line = line;
    it.name = rd.optString(o, "name", line);
    if (it.name.empty() || it.name.size() > 64)
        rd.fail("an item needs a \"name\" of 1 to 64 characters", line);
    const std::string skill = rd.optString(o, "skill", line);
    if (skill == "collect")
        it.skill = Skill::Collect;
    else if (skill == "craft")
        it.skill = Skill::Craft;
    else if (skill == "smelt")
        it.skill = Skill::Smelt;
    else
        rd.fail("item '" + it.name + "': \"skill\" must be collect, craft or smelt", line);
    const std::string tile = rd.optString(o, "tile", line);
    if (it.skill == Skill::Collect) {
        if (tile.size() != 1 || std::string("TSCID").find(tile[0]) == std::string::npos)
            rd.fail("item '" + it.name + "': a collect recipe needs a \"tile\" among T, S, C, I, D", line);
        it.tile = tile[0];
    }
    if (o.contains("yield")) {
        if (!o["yield"].is_number_integer() || o["yield"].get<int64_t>() < 1 ||
            o["yield"].get<int64_t>() > 100)
            rd.fail("item '" + it.name + "': \"yield\" must be an integer in 1..100", line);
        it.yield = o["yield"].get<int>();
    }
    return it;
}

/// Resolves inputs, tool and station of every item (second pass, once all names are known).
void resolve(const Reader& rd, const nlohmann::json& items, RecipeBook& b) {
    for (size_t i = 0; i < b.items.size(); ++i) {
        Item& it = b.items[i];
        const nlohmann::json& o = items[i];
        if (o.contains("inputs") && !o["inputs"].is_null()) {
            if (!o["inputs"].is_object())
                rd.fail("item '" + it.name + "': \"inputs\" must be an object {item: quantity}", it.line);
            for (const auto& [k, v] : o["inputs"].items()) {
                if (!v.is_number_integer() || v.get<int64_t>() < 1 || v.get<int64_t>() > 100)
                    rd.fail("item '" + it.name + "': quantity of '" + k + "' must be an integer in 1..100",
                            it.line);
                it.inputs.emplace_back(rd.ref(b, k, "input", it), v.get<int>());
            }
        }
        it.tool = rd.ref(b, rd.optString(o, "tool", it.line), "tool", it);
        it.station = rd.ref(b, rd.optString(o, "station", it.line), "station", it);
        if (it.skill == Skill::Collect && !it.inputs.empty())
            rd.fail("item '" + it.name + "': a collect recipe takes no inputs", it.line);
        if (it.skill != Skill::Collect && it.inputs.empty())
            rd.fail("item '" + it.name + "': a " + skillName(it.skill) + " recipe needs inputs", it.line);
    }
}

/// DFS over prerequisite edges; throws naming the first cycle found.
void checkAcyclic(const Reader& rd, const RecipeBook& b) {
    std::vector<int> colour(b.items.size(), 0), path;
    std::function<void(int)> visit = [&](int v) {
        colour[size_t(v)] = 1;
        path.push_back(v);
        for (int p : b.prerequisites(v)) {
            if (colour[size_t(p)] == 1) {
                std::string names;
                auto from = std::find(path.begin(), path.end(), p);
                for (auto k = from; k != path.end(); ++k)
                    names += b.items[size_t(*k)].name + " -> ";
                rd.fail("recipe cycle: " + names + b.items[size_t(p)].name, b.items[size_t(p)].line);
            }
            if (colour[size_t(p)] == 0)
                visit(p);
        }
        path.pop_back();
        colour[size_t(v)] = 2;
    };
    for (size_t i = 0; i < b.items.size(); ++i)
        if (colour[i] == 0)
            visit(int(i));
}

} // namespace

namespace {

RecipeBook parseChecked(const std::string& text, const std::string& file) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        int line = 1;
        for (size_t i = 0; i < std::min(text.size(), size_t(e.byte)); ++i)
            line += text[i] == '\n';
        throw InputError(file, std::string("not valid JSON (") + e.what() + ")", line);
    }
    const Lines lines = scanLines(text);
    const Reader rd{file, lines};
    if (!j.is_object() || !j.contains("items") || !j["items"].is_array() || j["items"].empty())
        rd.fail("expected an object with a non-empty \"items\" array", 1);
    if (j["items"].size() > 500)
        rd.fail("more than 500 items", 1);
    RecipeBook b;
    b.source = file;
    for (size_t i = 0; i < j["items"].size(); ++i) {
        Item it = readItem(rd, j["items"][i], rd.itemLine(i));
        const int first = b.index(it.name);
        if (first >= 0)
            rd.fail("two recipes for item '" + it.name + "' (the first on line " +
                        std::to_string(b.items[size_t(first)].line) + ")",
                    it.line);
        b.items.push_back(std::move(it));
    }
    resolve(rd, j["items"], b);
    checkAcyclic(rd, b);
    if (!j.contains("tasks") || !j["tasks"].is_array() || j["tasks"].empty())
        rd.fail("expected a non-empty \"tasks\" array of item names", 1);
    for (size_t t = 0; t < j["tasks"].size(); ++t) {
        if (!j["tasks"][t].is_string())
            rd.fail("each task must be an item name (string)", rd.taskLine(t));
        const int k = b.index(j["tasks"][t].get<std::string>());
        if (k < 0)
            rd.fail("unknown item '" + j["tasks"][t].get<std::string>() + "' in \"tasks\"", rd.taskLine(t));
        b.tasks.push_back(k);
    }
    return b;
}

} // namespace

RecipeBook parseRecipes(const std::string& text, const std::string& file) {
    try {
        return parseChecked(text, file);
    } catch (const nlohmann::json::exception& e) {
        throw InputError(file, std::string("unexpected JSON content (") + e.what() + ")", 1);
    }
}

RecipeBook readRecipeFile(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f)
        throw InputError(path, "cannot open the recipe file");
    std::ostringstream s;
    s << f.rdbuf();
    if (s.str().size() > 1000000)
        throw InputError(path, "recipe file larger than 1 MB");
    return parseRecipes(s.str(), path);
}

const std::string& builtinRecipesJson() {
    static const std::string text = R"({
  "items": [
    {"name": "log", "skill": "collect", "tile": "T"},
    {"name": "planks", "skill": "craft", "inputs": {"log": 1}, "yield": 2},
    {"name": "sticks", "skill": "craft", "inputs": {"planks": 1}, "yield": 2},
    {"name": "table", "skill": "craft", "inputs": {"planks": 2}},
    {"name": "wood_pickaxe", "skill": "craft", "inputs": {"planks": 1, "sticks": 1}, "station": "table"},
    {"name": "stone", "skill": "collect", "tile": "S", "tool": "wood_pickaxe"},
    {"name": "coal", "skill": "collect", "tile": "C", "tool": "wood_pickaxe"},
    {"name": "furnace", "skill": "craft", "inputs": {"stone": 2}, "station": "table"},
    {"name": "stone_pickaxe", "skill": "craft", "inputs": {"stone": 1, "sticks": 1}, "station": "table"},
    {"name": "iron_ore", "skill": "collect", "tile": "I", "tool": "stone_pickaxe"},
    {"name": "iron_ingot", "skill": "smelt", "inputs": {"iron_ore": 1, "coal": 1}, "station": "furnace"},
    {"name": "iron_pickaxe", "skill": "craft", "inputs": {"iron_ingot": 1, "sticks": 1}, "station": "table"},
    {"name": "diamond", "skill": "collect", "tile": "D", "tool": "iron_pickaxe"}
  ],
  "tasks": ["log", "planks", "sticks", "table", "wood_pickaxe", "stone", "coal", "furnace",
            "stone_pickaxe", "iron_ore", "iron_ingot", "iron_pickaxe", "diamond"]
}
)";
    return text;
}

RecipeBook builtinRecipes() {
    return parseRecipes(builtinRecipesJson(), "<built-in recipes>");
}

} // namespace pl::gridworld
