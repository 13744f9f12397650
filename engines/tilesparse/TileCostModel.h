#pragma once
/// Roofline cost model of one decode step of one attention layer. Pure functions.
/// Units: FLOPs, bytes, seconds; peak in FLOP/s, bandwidth in byte/s.

#include <string>
#include <vector>

namespace pl::tilesparse {

/// Attention shape used for costing (may be a hardware preset rather than the workload).
struct CostShape {
    std::string name;
    int rows = 256;       ///< query rows R = heads x MTP tokens
    int dk = 576;         ///< key dim (latent + RoPE for MLA)
    int dv = 512;         ///< value dim
    bool sharedKV = true; ///< MLA: V is part of the latent, a block costs B_k d_k e bytes
    double elemBytes = 2; ///< bytes per element e
};

struct Hardware {
    double peakFlops = 989e12;  ///< P_peak, FLOP/s
    double bandwidth = 3.35e12; ///< BW, byte/s
    double launchSeconds = 0;   ///< fixed overhead added to the modelled time
    double ridge() const { return peakFlops / bandwidth; }
};

/// The presets of the spec: "mla_mtp2" (R = 256, 576/512 shared), "mla" (R = 128), "gqa"
/// (R = 4 T_q, 128/128 separate K and V).
CostShape presetShape(const std::string& name, int mtpTokens, double elemBytes);

/// Closed-form dense arithmetic intensity R 2 (d_k + d_v) / (bytes per key), FLOP/byte.
double denseIntensity(const CostShape& s);

struct CostPoint {
    double flops = 0;
    double bytes = 0;
    double intensity = 0;  ///< FLOP/byte
    double seconds = 0;    ///< max(F/P, B/BW) + launch
    double attainable = 0; ///< F / (seconds without launch), FLOP/s
    bool computeBound = false;
};

/// Cost of a selection covering `tileFraction` of the tiles and `blockFraction` of the key
/// blocks of a context of `keys` tokens, plus an importance estimator costing `indexFlops` and
/// `indexBytes`. Q and O are read/written once.
CostPoint modelCost(const CostShape& s, const Hardware& hw, int keys, double tileFraction,
                    double blockFraction, double indexFlops = 0, double indexBytes = 0);

} // namespace pl::tilesparse
