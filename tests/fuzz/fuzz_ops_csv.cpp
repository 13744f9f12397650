// libFuzzer target: pl::streams::OpStreamReader (the resettable-sketches `t,op,key,delta` reader)
// must yield operations with non-decreasing t and finite deltas ≥ 0 (0 for resets), or throw
// pl::InputError; the exact sketch stays finite and non-negative on what it yields.
#include "core/Errors.h"
#include "streams/Sketches.h"
#include "streams/StreamOps.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    pl::streams::OpStreamReader r(in, "fuzz.csv");
    pl::streams::StatisticFn f;
    f.kind = pl::streams::StatisticKind::Cardinality;
    pl::streams::ExactSketch exact(f);
    pl::streams::StreamOp op;
    int64_t last = std::numeric_limits<int64_t>::min();
    try {
        while (r.next(op)) {
            if (op.t < last || !std::isfinite(op.delta) || op.delta < 0 || (op.reset && op.delta != 0))
                std::abort();
            last = op.t;
            exact.apply(op);
            if (!(exact.estimate() >= 0) || exact.estimate() > double(exact.memory()))
                std::abort();
        }
    } catch (const pl::InputError&) {
    }
    return 0;
}
