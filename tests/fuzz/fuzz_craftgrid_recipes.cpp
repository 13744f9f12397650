// libFuzzer target: pl::gridworld::parseRecipes must return an acyclic book whose references and
// tasks are in range, or throw pl::InputError.
#include "core/Errors.h"
#include "gridworld/RecipeBook.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const pl::gridworld::RecipeBook b = pl::gridworld::parseRecipes(text, "fuzz.json");
        const int n = int(b.items.size());
        if (n < 1 || b.tasks.empty())
            std::abort();
        for (int t : b.tasks)
            if (t < 0 || t >= n)
                std::abort();
        for (int i = 0; i < n; ++i) {
            for (int p : b.prerequisites(i))
                if (p < 0 || p >= n || p == i)
                    std::abort();
            if (b.subgoals(i) < 1 || b.subgoals(i) > n)
                std::abort();
        }
    } catch (const pl::InputError&) {
    }
    return 0;
}
