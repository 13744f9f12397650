#include "TileCostModel.h"

#include "core/Errors.h"

#include <algorithm>

namespace pl::tilesparse {

CostShape presetShape(const std::string& name, int mtpTokens, double elemBytes) {
    CostShape s;
    s.name = name;
    s.elemBytes = elemBytes;
    if (name == "mla_mtp2") {
        s.rows = 128 * 2;
    } else if (name == "mla") {
        s.rows = 128;
    } else if (name == "gqa") {
        s.rows = 4 * mtpTokens;
        s.dk = 128;
        s.dv = 128;
        s.sharedKV = false;
    } else {
        throw UsageError("unknown cost preset '" + name + "'");
    }
    return s;
}

double denseIntensity(const CostShape& s) {
    const double perKeyBytes = (s.sharedKV ? s.dk : s.dk + s.dv) * s.elemBytes;
    return s.rows * 2.0 * (s.dk + s.dv) / perKeyBytes;
}

CostPoint modelCost(const CostShape& s, const Hardware& hw, int keys, double tileFraction,
                    double blockFraction, double indexFlops, double indexBytes) {
    CostPoint c;
    const double denseFlops = double(s.rows) * keys * 2.0 * (s.dk + s.dv);
    const double denseBytes = double(keys) * (s.sharedKV ? s.dk : s.dk + s.dv) * s.elemBytes;
    const double qoBytes = double(s.rows) * (s.dk + s.dv) * s.elemBytes;
    c.flops = tileFraction * denseFlops + indexFlops;
    c.bytes = blockFraction * denseBytes + qoBytes + indexBytes;
    c.intensity = c.flops / c.bytes;
    const double tc = c.flops / hw.peakFlops, tm = c.bytes / hw.bandwidth;
    c.computeBound = tc >= tm;
    c.seconds = std::max(tc, tm) + hw.launchSeconds;
    c.attainable = c.flops / std::max(tc, tm);
    return c;
}

} // namespace pl::tilesparse
