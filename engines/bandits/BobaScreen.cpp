#include "BobaScreen.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pl::bandits {

namespace {

/// The mutable state of one screen.
class Screen {
public:
    Screen(const PackedFingerprints& fp, const std::vector<double>& y, const std::vector<int>& arm,
           int numArms, const std::vector<bool>& inTop, const ScreenSettings& s, Rng& rng,
           const std::function<void()>& poll)
        : m_fp(fp), m_y(y), m_arm(arm), m_inTop(inTop), m_s(s), m_rng(rng), m_poll(poll),
          m_evaluated(y.size(), false), m_armRows(size_t(numArms)), m_pulls(size_t(numArms), 0.0),
          m_scratch(size_t(fp.bits()) + 1) {
        for (size_t r = 0; r < y.size(); ++r)
            m_armRows[size_t(arm[r])].push_back(int64_t(r));
        for (int t : inTop)
            m_topSize += t ? 1 : 0;
    }

    void evaluate(int64_t r) {
        m_evaluated[size_t(r)] = true;
        m_out.evalOrder.push_back(r);
        m_evalY.push_back(m_y[size_t(r)]);
        m_hits += m_inTop[size_t(r)] ? 1 : 0;
    }

    void endRound() {
        m_model.fit(m_fp, m_out.evalOrder, m_evalY, m_s.noise, m_s.priorScale);
        m_out.evalsPerRound.push_back(double(m_out.evalOrder.size()));
        m_out.inferencesPerRound.push_back(double(m_out.inferences));
        m_out.recallPerRound.push_back(m_topSize ? double(m_hits) / m_topSize : 0.0);
        if (m_poll)
            m_poll();
    }

    double acquisition(int64_t r) {
        double mean, var;
        m_model.predict(m_fp, r, m_scratch.data(), mean, var);
        ++m_out.inferences;
        return mean + m_s.beta * std::sqrt(std::max(0.0, var));
    }

    /// The \a count best of \a candidates by acquisition (all are scored).
    std::vector<int64_t> best(const std::vector<int64_t>& candidates, int count) {
        std::vector<std::pair<double, int64_t>> scored;
        scored.reserve(candidates.size());
        for (size_t k = 0; k < candidates.size(); ++k) {
            scored.emplace_back(-acquisition(candidates[k]), candidates[k]);
            if (m_poll && (k & 16383) == 16383)
                m_poll();
        }
        const size_t n = std::min(scored.size(), size_t(std::max(0, count)));
        if (n == 0)
            return {};
        std::partial_sort(scored.begin(), scored.begin() + long(n), scored.end());
        std::vector<int64_t> out;
        for (size_t k = 0; k < n; ++k)
            out.push_back(scored[k].second);
        return out;
    }

    void fullRound() {
        std::vector<int64_t> cand;
        for (size_t r = 0; r < m_y.size(); ++r)
            if (!m_evaluated[r])
                cand.push_back(int64_t(r));
        for (int64_t r : best(cand, m_s.batch))
            evaluate(r);
    }

    void randomRound() {
        std::vector<int64_t> cand;
        for (size_t r = 0; r < m_y.size(); ++r)
            if (!m_evaluated[r])
                cand.push_back(int64_t(r));
        for (int k = 0; k < m_s.batch && !cand.empty(); ++k) {
            const size_t j = size_t(m_rng.uniformInt(cand.size()));
            evaluate(cand[j]);
            cand[j] = cand.back();
            cand.pop_back();
        }
    }

    /// Arm statistics: pulls and the share of each arm's evaluations in the running top q.
    std::vector<double> armRewards() const {
        std::vector<double> sorted = m_evalY;
        const size_t k = std::max<size_t>(1, size_t(std::ceil(m_s.q * double(sorted.size()))));
        std::nth_element(sorted.begin(), sorted.begin() + long(k - 1), sorted.end(), std::greater<>());
        const double threshold = sorted[k - 1];
        std::vector<double> hits(m_pulls.size(), 0.0), count(m_pulls.size(), 0.0);
        for (size_t i = 0; i < m_out.evalOrder.size(); ++i) {
            const int a = m_arm[size_t(m_out.evalOrder[i])];
            count[size_t(a)] += 1;
            hits[size_t(a)] += m_evalY[i] >= threshold ? 1 : 0;
        }
        for (size_t a = 0; a < hits.size(); ++a)
            hits[a] = count[a] > 0 ? hits[a] / count[a] : 0.0;
        return hits;
    }

    void creditRoundZero() {
        for (int64_t r : m_out.evalOrder)
            m_pulls[size_t(m_arm[size_t(r)])] = 1;
    }

    void banditRound() {
        const int A = int(m_pulls.size());
        std::vector<bool> eligible(size_t(A), false);
        for (int a = 0; a < A; ++a)
            for (int64_t r : m_armRows[size_t(a)])
                if (!m_evaluated[size_t(r)]) {
                    eligible[size_t(a)] = true;
                    break;
                }
        const std::vector<int> chosen =
            chooseArms(m_s.policy, m_pulls, armRewards(), eligible, m_s.armsPerRound, m_s.c, m_rng);
        m_out.armsPerRoundChosen.push_back(chosen);
        if (chosen.empty())
            return;
        const int m = int(chosen.size());
        int carry = 0;
        for (int k = 0; k < m; ++k) {
            const int a = chosen[size_t(k)];
            m_pulls[size_t(a)] += 1;
            int share = m_s.batch / m + (k < m_s.batch % m ? 1 : 0) + carry;
            std::vector<int64_t> cand;
            for (int64_t r : m_armRows[size_t(a)])
                if (!m_evaluated[size_t(r)])
                    cand.push_back(r);
            if (m_s.subsample > 0 && int(cand.size()) > m_s.subsample) {
                for (int j = 0; j < m_s.subsample; ++j) // partial Fisher-Yates
                    std::swap(cand[size_t(j)],
                              cand[size_t(j) + size_t(m_rng.uniformInt(cand.size() - size_t(j)))]);
                cand.resize(size_t(m_s.subsample));
            }
            const std::vector<int64_t> picks = best(cand, share);
            carry = share - int(picks.size());
            for (int64_t r : picks)
                evaluate(r);
        }
    }

    ScreenOutcome finish() {
        m_out.recall = m_out.recallPerRound.empty() ? 0.0 : m_out.recallPerRound.back();
        m_out.posteriorMean = m_model.mean();
        return std::move(m_out);
    }

private:
    const PackedFingerprints& m_fp;
    const std::vector<double>& m_y;
    const std::vector<int>& m_arm;
    const std::vector<bool>& m_inTop;
    const ScreenSettings& m_s;
    Rng& m_rng;
    const std::function<void()>& m_poll;
    std::vector<bool> m_evaluated;
    std::vector<std::vector<int64_t>> m_armRows;
    std::vector<double> m_pulls;
    std::vector<int> m_scratch;
    std::vector<double> m_evalY;
    BitRegression m_model;
    ScreenOutcome m_out;
    int64_t m_topSize = 0, m_hits = 0;
};

} // namespace

ScreenOutcome runScreen(const PackedFingerprints& fp, const std::vector<double>& y,
                        const std::vector<int>& arm, int numArms, const std::vector<bool>& inTop,
                        const std::vector<int64_t>& round0, const ScreenSettings& s, Rng rng,
                        const std::function<void()>& poll) {
    Screen screen(fp, y, arm, numArms, inTop, s, rng, poll);
    for (int64_t r : round0)
        screen.evaluate(r);
    screen.creditRoundZero();
    screen.endRound();
    for (int round = 1; round < s.rounds; ++round) {
        switch (s.method) {
        case ScreenMethod::Full:
            screen.fullRound();
            break;
        case ScreenMethod::Random:
            screen.randomRound();
            break;
        case ScreenMethod::Bandit:
            screen.banditRound();
            break;
        }
        screen.endRound();
    }
    return screen.finish();
}

} // namespace pl::bandits
