#pragma once
/// Reader of the JSON MDP format shared by the behavioral-abstraction and pac-bayes-sac panels:
///   {"states": N, "actions": A, "P": [[s, a, s', p], ...], "R": [[s, a, r], ...],
///    "labels": {"name": [s, ...]}, "policy": [[s, a, p], ...], "critic": [h(0), ...]}
/// ("policy" and "critic" optional; missing R entries are 0). Every error is a pl::InputError
/// with the file, the 1-based line of the offending entry and the reason: malformed JSON,
/// missing or mistyped fields, ids out of range, negative or non-finite probabilities, a row
/// (s, a) or a policy row s whose probabilities do not sum to 1 within 1e-9 (named), more than
/// 2000 states. Pure functions; any thread.

#include "mdp/Mdp.h"

#include <string>

namespace pl::mdp {

/// Largest state count a file may declare.
inline constexpr int kMaxFileStates = 2000;
/// Largest action count a file may declare.
inline constexpr int kMaxFileActions = 64;

/// Parses the text of one JSON MDP file; \a fileName is used in messages.
Mdp parseMdpJson(const std::string& text, const std::string& fileName);
/// Reads and parses \a path (InputError "cannot open file" when unreadable).
Mdp readMdpFile(const std::string& path);

} // namespace pl::mdp
