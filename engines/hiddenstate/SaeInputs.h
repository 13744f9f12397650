#pragma once
/// Readers of the sae-domain-ood panel's files: the texts table (`.csv` with header
/// `id,domain,split`, split ∈ {train, test}), activations (`.npy` [L, N, d]) and an optional SAE
/// archive (`.npz` `W_enc [L,d,m]`, `b_enc [L,m]`, `W_dec [L,m,d]`, `b_dec [L,d]`). Each throws
/// pl::InputError naming the file and the line or array and the reason. Any thread.

#include "core/NpzReader.h"
#include "hiddenstate/SaeCodes.h"

#include <string>
#include <vector>

namespace pl::hiddenstate {

struct TextTable {
    std::vector<std::string> ids, domain, split;
};

/// Parses the texts table (quoted fields not supported; blank lines skipped; CR LF accepted).
TextTable parseTextTable(const std::string& text, const std::string& name);
TextTable readTextTable(const std::string& path);

/// Activations [L, N, d] as L matrices N x d (finite values only).
std::vector<Eigen::MatrixXd> activationsFromNpy(const NpyArray& a, const std::string& name);

/// One SaeLayer per layer; shapes must agree with each other.
std::vector<SaeLayer> saeFromArchive(const NpzArchive& z);

} // namespace pl::hiddenstate
