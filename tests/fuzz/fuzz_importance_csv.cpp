// libFuzzer target: the gemq-moe-quant importance table (pl::gemq::parseImportanceCsv) and the
// allocator on what it accepts. Parsing must return a complete grid with finite, non-negative costs
// and positive params, or throw pl::InputError; the global and layer-wise allocations then respect
// the budget and the global LP objective is never above the layer-wise one.
#include "core/Errors.h"
#include "gemq/Allocation.h"
#include "gemq/ImportanceTable.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace pl::gemq;
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try {
        const auto t = parseImportanceCsv(bytes, "fuzz.csv");
        const size_t n = size_t(t->layers) * size_t(t->experts);
        if (n == 0 || t->bits.empty() || size_t(t->cost.rows()) != n || t->params.size() != n)
            __builtin_trap();
        for (Eigen::Index i = 0; i < t->cost.size(); ++i)
            if (!(t->cost.data()[i] >= 0) || !std::isfinite(t->cost.data()[i]))
                __builtin_trap();
        if (n > 4096)
            return 0;
        AllocProblem p;
        p.layers = t->layers;
        p.experts = t->experts;
        p.bits = t->bits;
        p.cost = t->cost;
        p.params = t->params;
        const double avg = 0.5 * (t->bits.front() + t->bits.back());
        const Allocation g = allocate(p, avg, true), l = allocate(p, avg, false);
        if (g.avgBits > avg * (1 + 1e-9) || l.avgBits > avg * (1 + 1e-9) ||
            g.lpObjective > l.lpObjective * (1 + 1e-9) + 1e-300)
            __builtin_trap();
    } catch (const pl::InputError&) {
    }
    return 0;
}
