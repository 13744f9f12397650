#pragma once
/// Reader of `*.eenn.json` manifests (eefp-early-exit panel): {"logits": "[N,K,C] .npy",
/// "labels": "[N] .npy", "flops": [K cumulative], "calibration": optional "[N] 0/1 .npy"}, paths
/// relative to the manifest. Validates shapes, integer labels in [0, C), finite logits, strictly
/// increasing non-negative FLOPs and a 0/1 mask before anything is used.
#include "core/NpyReader.h"
#include "smallnets/EarlyExitNet.h"

#include <string>
#include <vector>

namespace pl::smallnets {

/// The manifest's own fields (paths already resolved against the manifest's folder).
struct ExitManifest {
    std::string logits, labels, calibration; ///< calibration empty when absent
    std::vector<double> flops;
};

/// Parses manifest text. Throws pl::InputError naming \a name (and the byte offset for JSON
/// syntax errors) for a missing or mistyped field or bad FLOPs. \a dir resolves relative paths.
ExitManifest parseExitManifest(const std::string& text, const std::string& name, const std::string& dir);

/// Validates the arrays a manifest names (logits [N, K, C], labels [N], optional 0/1 mask [N],
/// K = number of FLOPs entries) and assembles them; \a M may be null. Throws pl::InputError naming
/// the offending array's file (\a path for a FLOPs/K mismatch). No file access.
ExitLogits assembleExitLogits(const ExitManifest& m, const NpyArray& L, const NpyArray& Y, const NpyArray* M,
                              const std::string& path);

/// Reads a manifest and the arrays it names. Throws pl::InputError naming the offending file.
ExitLogits readExitManifest(const std::string& path, ExitManifest* manifest = nullptr);

} // namespace pl::smallnets
