#pragma once
/// Score densities of two classes as line series (Gaussian KDE, Silverman bandwidth on the pooled
/// scores, 80 points over the pooled range), shared by the hidden-state panels' density views.
/// Pure; any thread.

#include "core/ResultDocument.h"

#include <string>
#include <vector>

namespace pl::hiddenstate {

/// Writes series \a posPrefix + id and \a negPrefix + id (positives, negatives) into \a doc;
/// non-finite scores are left out; nothing is written for an empty class.
void addDensities(const std::vector<double>& score, const std::vector<char>& positive, const std::string& id,
                  const std::string& posPrefix, const std::string& negPrefix, ResultDocument& doc);

} // namespace pl::hiddenstate
