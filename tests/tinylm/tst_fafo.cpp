// fafo-decoding (engines/tinylm): FAFO and lookahead equal autoregressive greedy decoding for
// every seed, compressor, budget and window shape (the built-in induction model and the stored
// fixtures, which have layer norms, several heads and GELU); more than one token per forward on
// repetitive prompts; lossy-only decoding changes long-distance copies; determinism; cancellation.
#include "core/Errors.h"
#include "core/RunContext.h"
#include "tinylm/Decoding.h"
#include "tinylm/FafoDecodingEngine.h"
#include "tinylm/FafoDecodingKeys.h"
#include "tinylm/InductionModel.h"
#include "tinylm/SafeTensors.h"

#include <QtTest>

using namespace pl;
using namespace pl::tinylm;
namespace K = pl::tinylm::fafo::keys;

namespace {

ResultDocument runFafo(uint64_t seed, const std::vector<std::pair<std::string, std::string>>& set) {
    const FafoDecodingEngine e;
    ParamSet p(e.params());
    p.setText(K::param::kPrompts, "2");
    p.setText(K::param::kGenLen, "40");
    p.setText(K::param::kSweep, "false");
    p.setText(K::param::kCopyMin, "30");
    p.setText(K::param::kCopyMax, "200");
    for (const auto& [k, v] : set)
        p.setText(k, v);
    RunContext ctx(seed);
    return e.run({}, p, ctx);
}

/// prefix + suffix (appended, not operator+: GCC 12 warns falsely on short literal concatenations).
std::string key(const char* prefix, const char* suffix) {
    std::string k(prefix);
    k.append(suffix);
    return k;
}

const std::vector<int64_t>& tokens(const ResultDocument& d, const char* mode) {
    return d.labels.at(key(K::label::kTokensPrefix, mode));
}

} // namespace

class TestFafo : public QObject {
    Q_OBJECT
private slots:
    void losslessOverSeedsCompressorsBudgets() {
        int runs = 0;
        for (uint64_t seed : {1u, 2u, 3u})
            for (const char* comp : K::kCompressors)
                for (const char* budget : {"16", "64", "256"}) {
                    const ResultDocument d =
                        runFafo(seed, {{K::param::kCompressor, comp}, {K::param::kBudget, budget}});
                    QCOMPARE(tokens(d, "fafo"), tokens(d, "ar"));
                    QCOMPARE(tokens(d, "lookahead"), tokens(d, "ar"));
                    QCOMPARE(tokens(d, "selfspec"), tokens(d, "ar"));
                    QCOMPARE(d.metrics.at(K::metric::kLossless), 1.0);
                    ++runs;
                }
        QCOMPARE(runs, 27);
    }

    void losslessForOtherWindowShapes() {
        const std::vector<std::vector<std::pair<std::string, std::string>>> shapes = {
            {{K::param::kWindow, "1"}, {K::param::kNgram, "2"}, {K::param::kPool, "1"}},
            {{K::param::kWindow, "8"}, {K::param::kNgram, "6"}, {K::param::kPool, "16"}},
            {{K::param::kWindow, "3"},
             {K::param::kNgram, "8"},
             {K::param::kPool, "4"},
             {K::param::kCompressor, "h2o"}},
        };
        for (const auto& s : shapes) {
            const ResultDocument d = runFafo(11, s);
            QCOMPARE(tokens(d, "fafo"), tokens(d, "ar"));
            QCOMPARE(d.metrics.at(K::metric::kLossless), 1.0);
        }
    }

    void losslessOnStoredModels_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("layernorm gelu") << "tf-layernorm-gelu.safetensors";
        QTest::newRow("none relu") << "tf-none-relu.safetensors";
    }
    void losslessOnStoredModels() {
        QFETCH(QString, file);
        const TransformerModel m =
            modelFromSafeTensors(
                readSafeTensors(PAPERLAB_SOURCE_DIR "/tests/data/tinylm/" + file.toStdString()), "m")
                .transformer;
        for (uint64_t seed : {1u, 2u, 3u, 4u}) {
            Rng rng(seed);
            std::vector<int> prompt;
            for (int i = 0; i < 14; ++i) // a repeated motif so that guesses can be right
                prompt.push_back(i < 7 ? int(rng.uniformInt(uint64_t(m.vocab()))) : prompt[size_t(i - 7)]);
            const Prefill pf = prefillPrompt(m, prompt, m.maxPositions());
            DecodeConfig c;
            c.gen = m.maxPositions() - int(prompt.size()) - 1;
            const DecodeStats ar = decodeGreedy(m, pf, c);
            for (const char* comp : K::kCompressors) {
                auto view = makeView(comp, 6, 2, 4, int(m.layers.size()), m.nHeads);
                LookaheadConfig la;
                la.window = 4;
                la.ngram = 3;
                la.pool = 4;
                la.view = view.get();
                la.budget = 6;
                la.seed = seed;
                QCOMPARE(decodeLookahead(m, pf, prompt, c, la).tokens, ar.tokens);
            }
            QCOMPARE(decodeSelfSpeculative(m, pf, c, 3, 1).tokens, ar.tokens);
        }
    }

    void moreThanOneTokenPerForward() {
        for (uint64_t seed : {1u, 2u, 3u}) {
            const ResultDocument d = runFafo(seed, {});
            const double tpf = d.metrics.at(key(K::metric::kTokensPerForwardPrefix, "fafo"));
            qInfo("seed %llu: FAFO %.3f tokens per forward", (unsigned long long)seed, tpf);
            QVERIFY(tpf > 1.0);
        }
    }

    void lossyOnlyChangesLongCopies() {
        for (uint64_t seed : {1u, 2u, 3u}) {
            const ResultDocument d = runFafo(seed, {{K::param::kCopyMin, "300"},
                                                    {K::param::kCopyMax, "400"},
                                                    {K::param::kCompressor, "streaming"},
                                                    {K::param::kBudget, "64"}});
            const double mis = d.metrics.at(K::metric::kLossyMismatch);
            qInfo("seed %llu: lossy-only mismatch %.3f", (unsigned long long)seed, mis);
            QVERIFY(mis > 0.2);
            QCOMPARE(tokens(d, "fafo"), tokens(d, "ar"));
        }
    }

    void deterministic() {
        const ResultDocument a = runFafo(7, {{K::param::kSweep, "true"}, {K::param::kSweepPrompts, "1"}});
        const ResultDocument b = runFafo(7, {{K::param::kSweep, "true"}, {K::param::kSweepPrompts, "1"}});
        QCOMPARE(a.labels, b.labels);
        QCOMPARE(a.metrics, b.metrics);
        QVERIFY(a.series.count(key(K::series::kSpeedupVsBudgetPrefix, "quest")));
        const ResultDocument c = runFafo(8, {});
        QVERIFY(c.labels != a.labels);
    }

    void cancels() {
        const FafoDecodingEngine e;
        ParamSet p(e.params());
        RunContext ctx(1);
        ctx.requestStop();
        QVERIFY_THROWS_EXCEPTION(Cancelled, e.run({}, p, ctx));
    }
};

QTEST_GUILESS_MAIN(TestFafo)
#include "tst_fafo.moc"
