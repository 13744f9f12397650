// bimetric-ann claims at the issue's scale (built-in pair n = 20,000, proxy_noise 0.5, 100 queries,
// R 32, l_build 75, alpha 1.2, l_search 500), seeds 1..3: bimetric-beats-rerank at Q = 1500,
// recall-at-3000 >= 0.95, and ours = rerank for Q <= 100. Label slow (about a minute per seed).
#include "core/RunContext.h"
#include "search/BimetricAnnEngine.h"

#include <QtTest>

using namespace pl;

class TestBimetricClaims : public QObject {
    Q_OBJECT
private slots:
    void claimsAtIssueScale() { bimetric_claims(); }

private:
    static void bimetric_claims() {
        search::bimetric::BimetricAnnEngine e;
        for (uint64_t seed = 1; seed <= 3; ++seed) {
            ParamSet p(e.params());
            p.setText("n", "20000");
            p.setText("queries", "100");
            p.setText("proxy_noise", "0.5");
            p.setText("quota", "1500");
            RunContext ctx(seed);
            const ResultDocument d = e.run({}, p, ctx);
            for (const Claim& c : d.claims) {
                qInfo("seed %llu %s holds=%d observed=%.4f (%s)", (unsigned long long)seed, c.id.c_str(),
                      int(c.holds), c.observed, c.detail.c_str());
                QVERIFY2(c.holds, c.id.c_str());
            }
            QVERIFY(d.metrics.at("recall_ours") > d.metrics.at("recall_rerank"));
        }
    }
};

QTEST_GUILESS_MAIN(TestBimetricClaims)
#include "tst_bimetric_claims.moc"
