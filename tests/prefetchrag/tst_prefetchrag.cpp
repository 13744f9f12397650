// prefetch-rag (engines/prefetchrag): BM25 scores and top-k equal a numpy transcription of the
// formula on a random corpus; the tokenizer; the event simulator's invariants (latency >= tokens x
// t_tok, TTFT <= latency, NoRAG never retrieves, sync never hides a retrieval, zero latency makes
// sync and predictive alike); the readers (JSONL corpus and questions, .txt folder, UTF-8, duplicate
// ids, empty documents); the run's keys, determinism and cancellation; the claims over three seeds.
#include "common/PythonOracle.h"
#include "core/Errors.h"
#include "core/RunContext.h"
#include "prefetchrag/Bm25.h"
#include "prefetchrag/PrefetchRagEngine.h"
#include "prefetchrag/PrefetchRagKeys.h"
#include "prefetchrag/RagInputs.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace pl;
using namespace pl::prefetchrag;
namespace K = pl::prefetchrag::keys;

namespace {

ResultDocument runWith(uint64_t seed, const std::map<std::string, std::string>& set = {},
                       const InputList& inputs = {}) {
    PrefetchRagEngine e;
    ParamSet p(e.params());
    for (const auto& [k, v] : set)
        p.setText(k, v);
    RunContext ctx(seed);
    return e.run(inputs, p, ctx);
}

void writeFile(const QString& path, const std::string& text) {
    std::ofstream f(path.toStdString(), std::ios::binary);
    f << text;
}

const char* kBm25Script = R"(
import sys, math, numpy as np
lines = open(sys.argv[1]).read().split('\n')
docs = [l.split() for l in lines[0].split('|')]
queries = [l.split() for l in lines[1].split('|')]
N = len(docs); avg = np.mean([len(d) for d in docs]); k1, b = 1.2, 0.75
vocab = sorted({t for d in docs for t in d})
col = {t: i for i, t in enumerate(vocab)}
tf = np.zeros((N, len(vocab)))
for i, d in enumerate(docs):
    for t in d: tf[i, col[t]] += 1
df = (tf > 0).sum(0)
idf = np.log(1 + (N - df + 0.5) / (df + 0.5))
L = np.array([len(d) for d in docs], float)
W = idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * L[:, None] / avg))
for q in queries:
    terms = sorted({t for t in q if t in col})
    s = W[:, [col[t] for t in terms]].sum(1) if terms else np.zeros(N)
    order = sorted(range(N), key=lambda i: (-s[i], i))[:5]
    print(' '.join('%d:%.12g' % (i, s[i]) for i in order))
)";

} // namespace

class TestPrefetchRag : public QObject {
    Q_OBJECT
private slots:
    void tokenizer() {
        const auto t = bm25Tokens("Hello, World-42 a_b\xc3\xa9x 7");
        QCOMPARE(t, (std::vector<std::string>{"hello", "world", "42", "a", "b", "x", "7"}));
    }

    void bm25MatchesNumpy() {
        if (!pl::test::havePython("numpy"))
            QSKIP("/usr/bin/python3 with numpy not available");
        Rng rng(5);
        std::vector<std::vector<std::string>> docs;
        std::string text;
        for (int d = 0; d < 60; ++d) {
            std::vector<std::string> doc;
            const int n = 3 + int(rng.uniformInt(15));
            for (int i = 0; i < n; ++i)
                doc.push_back("w" + std::to_string(rng.uniformInt(40)));
            for (const auto& w : doc)
                text += w + " ";
            text += d + 1 < 60 ? "|" : "\n";
            docs.push_back(doc);
        }
        std::vector<std::vector<std::string>> queries;
        for (int q = 0; q < 12; ++q) {
            std::vector<std::string> qu;
            for (int i = 0; i < 1 + int(rng.uniformInt(5)); ++i)
                qu.push_back("w" + std::to_string(rng.uniformInt(45))); // some unknown, some repeated
            for (const auto& w : qu)
                text += w + " ";
            text += q + 1 < 12 ? "|" : "\n";
            queries.push_back(qu);
        }
        QTemporaryDir dir;
        writeFile(dir.filePath("c.txt"), text);
        const QStringList out = pl::test::pythonLines(kBm25Script, {dir.filePath("c.txt")});
        QCOMPARE(out.size(), 12);
        const Bm25Index idx(docs);
        for (int q = 0; q < 12; ++q) {
            const auto hits = idx.topK(queries[size_t(q)], 5);
            const QStringList ref = out[q].split(' ');
            QCOMPARE(int(hits.size()), 5);
            for (int i = 0; i < 5; ++i) {
                const QStringList p = ref[i].split(':');
                QCOMPARE(hits[size_t(i)].doc, p[0].toInt());
                QVERIFY(std::abs(hits[size_t(i)].score - p[1].toDouble()) < 1e-9);
            }
        }
    }

    void keysOfTheIssue() {
        const ResultDocument d = runWith(1, {{"questions", "20"}, {"train_answers", "60"}});
        QCOMPARE(d.labels.at(K::label::kTopkDoc).size(), size_t(20 * 3));
        QCOMPARE(d.matrices.at(K::matrix::kTopkScore).rows, int64_t(20));
        QCOMPARE(d.matrices.at(K::matrix::kTopkScore).cols, int64_t(3));
        for (const char* p : K::kPolicyNames) {
            for (const char* m : {"latency_mean_", "ttft_mean_", "slot_accuracy_"})
                QVERIFY2(d.metrics.count(std::string(m) + p), p);
            QCOMPARE(d.vectors.at(std::string("latency_") + p).size(), size_t(20));
            QCOMPARE(d.vectors.at(std::string("ttft_") + p).size(), size_t(20));
        }
        for (const char* m : {K::metric::kTriggerPrecision, K::metric::kTriggerRecall, K::metric::kRecallAtK})
            QVERIFY2(d.metrics.count(m), m);
        // the top-k scores are descending per question and the labels are corpus indices
        const Matrix& s = d.matrices.at(K::matrix::kTopkScore);
        for (int64_t r = 0; r < s.rows; ++r)
            for (int64_t c = 1; c < s.cols; ++c)
                QVERIFY(s.at(r, c - 1) >= s.at(r, c));
        for (int64_t v : d.labels.at(K::label::kTopkDoc))
            QVERIFY(v >= 0 && v < int64_t(d.metrics.at(K::metric::kDocuments)));
    }

    /// Every policy decodes the same tokens: it can only add prefill and stalls to NoRAG's time; NoRAG
    /// never retrieves; TTFT <= latency; sync pays a retrieval before the first token.
    void simulatorInvariants() {
        const ResultDocument d = runWith(2, {{"questions", "30"}, {"train_answers", "60"}});
        const auto& base = d.vectors.at("latency_norag");
        for (const char* p : K::kPolicyNames) {
            const auto& lat = d.vectors.at(std::string("latency_") + p);
            const auto& tt = d.vectors.at(std::string("ttft_") + p);
            for (size_t q = 0; q < lat.size(); ++q) {
                QVERIFY2(lat[q] >= base[q] - 1e-9, p);
                QVERIFY2(tt[q] <= lat[q], p);
                QVERIFY(base[q] >= 4 * 10 * 25.0); // >= 10 tokens a sentence, 25 ms each
            }
        }
        QCOMPARE(d.metrics.at("requests_mean_norag"), 0.0);
        QCOMPARE(d.metrics.at("stall_mean_norag"), 0.0);
        QVERIFY(d.metrics.at("ttft_mean_sync") >= d.metrics.at("ttft_mean_norag") + 1.0);
        QCOMPARE(d.metrics.at("ttft_mean_predictive"), d.metrics.at("ttft_mean_norag"));
        // the oracle supplies every slot's document; NoRAG only guesses (1 in 8 values)
        QVERIFY(d.metrics.at("slot_accuracy_oracle") > 0.85);
        QVERIFY(d.metrics.at("slot_accuracy_norag") < 0.3);
        // guessing never stalls the asynchronous policies
        const ResultDocument g =
            runWith(2, {{"questions", "30"}, {"train_answers", "60"}, {"on_miss", "guess"}});
        for (const char* p : {"fixed_window", "stale_query", "predictive"})
            QCOMPARE(g.metrics.at(std::string("stall_mean_") + p), 0.0);
        QVERIFY(g.metrics.at("stall_mean_sync") > 0);
    }

    void deterministic() {
        const std::map<std::string, std::string> small{{"questions", "15"}, {"train_answers", "40"}};
        const ResultDocument a = runWith(9, small), b = runWith(9, small), c = runWith(10, small);
        QCOMPARE(a.toJson(), b.toJson());
        QVERIFY(a.vectors.at("latency_sync") != c.vectors.at("latency_sync"));
    }

    void cancels() {
        PrefetchRagEngine e;
        ParamSet p(e.params());
        RunContext ctx(1);
        ctx.requestStop();
        QVERIFY_THROWS_EXCEPTION(Cancelled, e.run({}, p, ctx));
    }

    void readers() {
        QVERIFY(firstInvalidUtf8("abc \xc3\xa9") < 0);
        QCOMPARE(firstInvalidUtf8("ab\xff"), int64_t(2));
        QCOMPARE(firstInvalidUtf8("a\xc0\x80"), int64_t(1)); // overlong
        auto c = parseCorpusJsonl("{\"id\":\"a\",\"domain\":\"x\",\"text\":\"Alpha beta\"}\n"
                                  "{\"id\":\"b\",\"domain\":\"x\",\"text\":\"  \"}\n"
                                  "{\"id\":\"c\",\"text\":\"gamma\"}\n",
                                  "c.jsonl");
        QCOMPARE(c->ids.size(), size_t(2));
        QCOMPARE(c->emptySkipped, 1);
        auto lineOf = [](auto fn) {
            try {
                fn();
            } catch (const InputError& e) {
                return std::pair<int64_t, int64_t>(e.line(), e.byteOffset());
            }
            return std::pair<int64_t, int64_t>(-1, -1);
        };
        QCOMPARE(lineOf([] { parseCorpusJsonl("{\"id\":\"a\",\"text\":\"x\"}\n{oops\n", "c"); }).first,
                 int64_t(2));
        QCOMPARE(lineOf([] {
                     parseCorpusJsonl("{\"id\":\"a\",\"text\":\"x\"}\n{\"id\":\"a\",\"text\":\"y\"}\n", "c");
                 }).first,
                 int64_t(2));
        QCOMPARE(lineOf([] { parseCorpusJsonl("{\"id\":\"a\",\"text\":\"x\xfe\"}\n", "c"); }).second,
                 int64_t(19));
        QCOMPARE(lineOf([] {
                     parseQuestionsJsonl("{\"id\":\"q\",\"entity\":\"e\",\"attribute\":\"a\"}\n", "q");
                 }).first,
                 int64_t(1));
        auto q =
            parseQuestionsJsonl("{\"id\":\"q1\",\"entity\":\"Alpha\",\"attribute\":\"beta\",\"value\":\"v1\","
                                "\"doc\":\"a\"}\n{\"id\":\"q2\",\"entity\":\"gamma\",\"attribute\":\"delta\","
                                "\"value\":\"v2\",\"query\":\"Gamma!\"}\n",
                                "q.jsonl");
        const RagWorld w = worldFromInputs(*c, *q);
        QCOMPARE(w.questions[0].doc, 0);
        QCOMPARE(w.questions[1].query, (std::vector<std::string>{"gamma"}));
        QCOMPARE(w.facts[1].doc, 1); // best BM25 match of "gamma"
        auto bad = parseQuestionsJsonl("{\"id\":\"q1\",\"entity\":\"A\",\"attribute\":\"b\",\"value\":\"v\","
                                       "\"doc\":\"zzz\"}\n",
                                       "q.jsonl");
        QCOMPARE(lineOf([&] { worldFromInputs(*c, *bad); }).first, int64_t(1));
        // a .txt folder: one document per file, empty files skipped
        QTemporaryDir dir;
        writeFile(dir.filePath("b.txt"), "Beta text");
        writeFile(dir.filePath("a.txt"), "Alpha text");
        writeFile(dir.filePath("e.txt"), "\n");
        auto in = std::dynamic_pointer_cast<const CorpusInput>(loadRagInput(dir.path().toStdString()));
        QVERIFY(in);
        QCOMPARE(in->ids, (std::vector<std::string>{"a.txt", "b.txt"}));
        QCOMPARE(in->emptySkipped, 1);
    }

    void userCorpusRun() {
        std::string corpus, qs;
        for (int e = 0; e < 12; ++e)
            for (int a = 0; a < 3; ++a) {
                const std::string id = "d" + std::to_string(e) + "_" + std::to_string(a);
                corpus += "{\"id\":\"" + id + "\",\"domain\":\"" + (e % 2 ? "odd" : "even") +
                          "\",\"text\":\"Entity" + std::to_string(e) + " prop" + std::to_string(a) +
                          " is val" + std::to_string((e + a) % 5) + ".\"}\n";
                qs += "{\"id\":\"q" + id + "\",\"entity\":\"Entity" + std::to_string(e) +
                      "\",\"attribute\":\"prop" + std::to_string(a) + "\",\"value\":\"val" +
                      std::to_string((e + a) % 5) + "\",\"doc\":\"" + id + "\"}\n";
            }
        InputList in{parseCorpusJsonl(corpus, "c.jsonl"), parseQuestionsJsonl(qs, "q.jsonl")};
        const ResultDocument d = runWith(3, {{"train_answers", "40"}}, in);
        QCOMPARE(d.labels.at(K::label::kTopkDoc).size(), size_t(36 * 3));
        QCOMPARE(d.metrics.at(K::metric::kRecallAtK), 1.0);
        QCOMPARE(d.labels.at(K::label::kTopkDoc)[0], int64_t(0)); // q d0_0 finds d0_0 first
        QVERIFY(d.metrics.at("slot_accuracy_oracle") > d.metrics.at("slot_accuracy_norag"));
    }

    /// The claims over three seeds at the defaults; each claim's verdict is its metric against its
    /// threshold (c1 is logged: it does not reproduce at every seed on our latency model).
    void claimsOverSeeds() {
        int c1 = 0;
        for (uint64_t seed : {1, 2, 3}) {
            const ResultDocument d = runWith(seed);
            std::map<std::string, Claim> c;
            for (const Claim& x : d.claims) {
                c[x.id] = x;
                qInfo("seed %d %s holds=%d observed=%.4f threshold=%.2f", int(seed), x.id.c_str(),
                      int(x.holds), x.observed, x.threshold);
            }
            QCOMPARE(c.size(), size_t(5));
            QCOMPARE(c[K::claim::kLatency].holds, c[K::claim::kLatency].observed >= 0.25);
            c1 += c[K::claim::kLatency].holds;
            QVERIFY(c[K::claim::kLatency].observed > 0.1); // predictive is clearly faster than sync
            QVERIFY(c[K::claim::kTtft].holds);
            QVERIFY(c[K::claim::kAccuracy].holds);
            QVERIFY(c[K::claim::kShiftFixed].holds);
            QVERIFY(c[K::claim::kShiftPredictive].holds);
        }
        qInfo("c1 (latency cut >= 25%%) held at %d of 3 seeds", c1);
    }
};

QTEST_GUILESS_MAIN(TestPrefetchRag)
#include "tst_prefetchrag.moc"
