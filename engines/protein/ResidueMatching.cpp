#include "ResidueMatching.h"

#include <map>
#include <set>

namespace pl::protein {

std::vector<std::pair<int, int>> matchResidues(const ProteinModel& a, const ProteinModel& b) {
    std::map<ResidueKey, int> inB;
    for (size_t j = 0; j < b.keys.size(); ++j)
        inB.emplace(b.keys[j], int(j));
    std::vector<std::pair<int, int>> out;
    for (size_t i = 0; i < a.keys.size(); ++i) {
        auto it = inB.find(a.keys[i]);
        if (it != inB.end())
            out.emplace_back(int(i), it->second);
    }
    if (!out.empty() || a.keys.empty() || b.keys.empty())
        return out;
    // No shared chain name: first chain of each, by number and insertion code.
    std::map<std::pair<int, char>, int> firstB;
    for (size_t j = 0; j < b.keys.size() && b.keys[j].chain == b.keys[0].chain; ++j)
        firstB.emplace(std::make_pair(b.keys[j].number, b.keys[j].icode), int(j));
    for (size_t i = 0; i < a.keys.size() && a.keys[i].chain == a.keys[0].chain; ++i) {
        auto it = firstB.find({a.keys[i].number, a.keys[i].icode});
        if (it != firstB.end())
            out.emplace_back(int(i), it->second);
    }
    return out;
}

EnsembleMatch matchEnsemble(const std::vector<ProteinModel>& models) {
    EnsembleMatch m;
    if (models.empty())
        return m;
    std::vector<std::map<ResidueKey, int>> index(models.size());
    for (size_t k = 0; k < models.size(); ++k)
        for (size_t j = 0; j < models[k].keys.size(); ++j)
            index[k].emplace(models[k].keys[j], int(j));
    std::vector<std::vector<int>> cols(models.size());
    const ProteinModel& m0 = models.front();
    for (size_t i = 0; i < m0.keys.size(); ++i) {
        bool everywhere = true;
        std::vector<int> at(models.size());
        for (size_t k = 0; k < models.size() && everywhere; ++k) {
            auto it = index[k].find(m0.keys[i]);
            if (it == index[k].end())
                everywhere = false;
            else
                at[k] = it->second;
        }
        if (!everywhere) {
            ++m.droppedResidues;
            continue;
        }
        m.keys.push_back(m0.keys[i]);
        m.resNames.push_back(m0.resNames[i]);
        for (size_t k = 0; k < models.size(); ++k)
            cols[k].push_back(at[k]);
    }
    for (size_t k = 0; k < models.size(); ++k) {
        Eigen::Matrix3Xd c(3, Eigen::Index(cols[k].size()));
        for (size_t i = 0; i < cols[k].size(); ++i)
            c.col(Eigen::Index(i)) = models[k].ca.col(cols[k][i]);
        m.coords.push_back(std::move(c));
    }
    return m;
}

} // namespace pl::protein
