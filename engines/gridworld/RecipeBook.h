#pragma once
/// The CraftGrid recipe book: items obtained by collecting a tile, crafting or smelting, with their
/// inputs, tool and station, and the task list; the JSON reader with its checks (a DAG, known items,
/// one recipe per item) and prerequisite closures. Immutable after reading; any thread. No Qt.

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace pl::gridworld {

enum class Skill { Collect, Craft, Smelt };

/// "collect" | "craft" | "smelt".
const char* skillName(Skill s);

/// One item and the one recipe that produces it.
struct Item {
    std::string name;
    Skill skill = Skill::Collect;
    char tile = 0;                           ///< collect: the tile used (never used up)
    std::vector<std::pair<int, int>> inputs; ///< (item index, quantity), consumed
    int yield = 1;                           ///< items produced per action
    int tool = -1;                           ///< item index held (not consumed), -1 none
    int station = -1;                        ///< item index held (not consumed), -1 none
    int line = 0;                            ///< line of its entry in the file (0: built in)
};

struct RecipeBook {
    std::vector<Item> items;
    std::vector<int> tasks; ///< item indices, file order
    std::string source;     ///< file name or "<built-in recipes>"

    /// Index of an item by name, -1 when unknown.
    int index(const std::string& name) const;
    /// Direct prerequisites of item i (inputs, tool, station), in that order, without repeats.
    std::vector<int> prerequisites(int i) const;
    /// The prerequisite closure of item i (inputs, tool, station, transitively, i itself included),
    /// as a membership mask over items.
    std::vector<char> closure(int i) const;
    /// Size of closure(i): the task's subgoal count.
    int subgoals(int i) const;
    /// Per item, the longest prerequisite chain below it (0 for an item without prerequisites).
    std::vector<int> depths() const;
    /// The distinct collect tiles, in item order.
    std::string collectTiles() const;
};

/// Parses a recipe book. Throws pl::InputError(file, reason, line) for invalid JSON, a missing or
/// mistyped field, two recipes for one item, an unknown item (inputs, tool, station or task), a
/// collect recipe without a tile in TSCID, a craft or smelt recipe without inputs, or a cycle
/// (naming its items in order).
RecipeBook parseRecipes(const std::string& text, const std::string& file);

/// Reads and parses a recipe file (pl::InputError when unreadable).
RecipeBook readRecipeFile(const std::string& path);

/// The built-in CraftGrid tech tree (log, planks, sticks, table, wood pickaxe, stone, coal, furnace,
/// stone pickaxe, iron ore, iron ingot, iron pickaxe, diamond) with every item as a task.
const std::string& builtinRecipesJson();
RecipeBook builtinRecipes();

} // namespace pl::gridworld
