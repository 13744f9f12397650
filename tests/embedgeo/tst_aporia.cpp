// The aporia-hallucination engine: result keys, the claims over 3 seeds x 5 label draws (numbers
// logged), determinism, cancellation, the semi-supervised file mode, user embeddings, and bad JSONL
// (bad JSON, missing fields, unknown labels listed, count mismatch, < 2 labels per class).
#include "embedgeo/AporiaEngine.h"
#include "embedgeo/AporiaKeys.h"
#include "embedgeo/ResponseSet.h"

#include "core/Errors.h"
#include "core/NpyReader.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace pl;
using namespace pl::embedgeo;
namespace K = pl::embedgeo::aporia::keys;

namespace {

ResultDocument runAporia(const ParamSet& ps, uint64_t seed, const InputList& in = {}) {
    AporiaEngine e;
    RunContext ctx(seed);
    return e.run(in, ps, ctx);
}

ParamSet smallParams() {
    AporiaEngine e;
    ParamSet ps(e.params());
    ps.setText(K::param::kPrompts, "30");
    ps.setText(K::param::kResponses, "12");
    return ps;
}

void writeText(const QString& path, const std::string& text) {
    std::ofstream(path.toStdString()) << text;
}

std::string jsonlOf(int prompts, int per, bool allLabelled) {
    std::string s;
    const char* gen[] = {"The capital of %s is Renvu.", "Renvu is the capital of %s.",
                         "%s has Renvu as capital."};
    for (int p = 0; p < prompts; ++p)
        for (int r = 0; r < per; ++r) {
            const bool h = r % 3 == 0;
            std::string text = h ? "Legend has it the capital of P" + std::to_string(p) + " was Torsel" +
                                       std::to_string(r) + " because of wandering bards number " +
                                       std::to_string(r * 7)
                                 : gen[r % 3];
            const size_t at = text.find("%s");
            if (at != std::string::npos)
                text.replace(at, 2, "P" + std::to_string(p));
            const bool lab = allLabelled || r < 4;
            s += "{\"prompt_id\": \"P" + std::to_string(p) + "\", \"response\": \"" + text + "\"" +
                 (lab ? std::string(", \"label\": ") + (h ? "\"hallucinated\"" : "0") : std::string()) +
                 "}\n";
        }
    return s;
}

void expectInputError(const std::string& text, const char* what, int64_t line) {
    try {
        parseResponseJsonl(text, "x.jsonl");
        QFAIL(qPrintable(QString("accepted: ") + what));
    } catch (const InputError& e) {
        QVERIFY2(QString(e.what()).contains(what), e.what());
        QCOMPARE(e.line(), line);
    }
}

} // namespace

class TestAporia : public QObject {
    Q_OBJECT
private slots:
    void keysAndClaimsOverSeeds() {
        AporiaEngine e;
        const ParamSet ps(e.params()); // paper defaults: 200 x 30 templated responses, 40 labels
        double f1 = 0;
        int dose = 0;
        for (uint64_t seed : {1, 2, 3}) {
            const ResultDocument d = runAporia(ps, seed);
            QCOMPARE(d.labels.at(K::label::kPredicted).size(), size_t(6000));
            for (const char* v :
                 {K::vector::kFisherScore, K::vector::kCentroidDistance, K::vector::kMeanCosine})
                QCOMPARE(d.vectors.at(v).size(), size_t(6000));
            for (const char* m : K::kMethods)
                QVERIFY(d.series.at(K::key(K::series::kF1VsLabelsPrefix, m)).x.size() == 5);
            for (const char* k :
                 {"f1", "f1_knn_labels", "f1_lp_raw", "f1_densest_cluster", "f1_logreg_labels"})
                QVERIFY2(std::isfinite(d.metrics.at(k)), k);
            QCOMPARE(int(d.claims.size()), 2);
            f1 += d.metrics.at(K::metric::kF1) / 3;
            dose += d.claims[1].holds;
            qInfo("seed %llu: F1 APORIA-LP %.3f, kNN %.3f, logreg %.3f, LP raw %.3f, densest %.3f; %s",
                  static_cast<unsigned long long>(seed), d.metrics.at("f1"), d.metrics.at("f1_knn_labels"),
                  d.metrics.at("f1_logreg_labels"), d.metrics.at("f1_lp_raw"),
                  d.metrics.at("f1_densest_cluster"), d.claims[1].detail.c_str());
        }
        qInfo("mean APORIA-LP F1 over 3 seeds x 5 draws at 40 labels: %.4f", f1);
        QVERIFY(f1 >= 0.88);
        QCOMPARE(dose, 3);
    }

    void vmfAsymmetryZeroIsNoInformation() {
        ParamSet ps = smallParams();
        ps.setText(K::param::kEmbedding, "vmf");
        ps.setText(K::param::kPrompts, "60");
        ps.setText(K::param::kAsymmetry, "0");
        const ResultDocument d = runAporia(ps, 5);
        QVERIFY(d.metrics.at("f1") < d.metrics.at(K::metric::kNoInformationF1) + 0.1);
        ps.setText(K::param::kAsymmetry, "1");
        QVERIFY(runAporia(ps, 5).metrics.at("f1") > 0.9);
    }

    void deterministic() {
        const ParamSet ps = smallParams();
        QCOMPARE(runAporia(ps, 3).toJson(), runAporia(ps, 3).toJson());
        QVERIFY(runAporia(ps, 3).toJson() != runAporia(ps, 4).toJson());
    }

    void cancels() {
        AporiaEngine e;
        RunContext ctx(1);
        ctx.requestStop();
        QVERIFY_THROWS_EXCEPTION(Cancelled, e.run({}, smallParams(), ctx));
    }

    void semiSupervisedFileAndEmbeddings() {
        QTemporaryDir dir;
        const QString f = dir.filePath("r.jsonl");
        writeText(f, jsonlOf(10, 9, false) +
                         "{\"prompt_id\": \"alone\", \"response\": \"a single answer here\"}\n");
        AporiaEngine e;
        ParamSet ps(e.params());
        const ResultDocument d = runAporia(ps, 1, {e.load(f.toStdString())});
        QCOMPARE(d.labels.at(K::label::kPredicted).size(), size_t(91));
        QCOMPARE(d.metrics.at(K::metric::kEvaluationMode), 0.0);
        QCOMPARE(d.metrics.at(K::metric::kSeeds), 40.0);
        QVERIFY(std::isnan(d.metrics.at(K::metric::kF1)));
        bool single = false;
        for (const auto& n : d.notes)
            single = single || n.find("single response") != std::string::npos;
        QVERIFY(single);
        // User embeddings: count mismatch is refused, a matching matrix is used.
        std::vector<double> v;
        for (int i = 0; i < 91 * 4; ++i)
            v.push_back(std::sin(0.37 * i) + 1.5);
        std::ofstream(dir.filePath("e.npy").toStdString(), std::ios::binary) << writeNpy({91, 4}, v);
        std::ofstream(dir.filePath("short.npy").toStdString(), std::ios::binary)
            << writeNpy({90, 4}, std::vector<double>(v.begin(), v.begin() + 360));
        QCOMPARE(runAporia(ps, 1, {e.load(f.toStdString()), e.load(dir.filePath("e.npy").toStdString())})
                     .labels.at(K::label::kPredicted)
                     .size(),
                 size_t(91));
        try {
            runAporia(ps, 1, {e.load(f.toStdString()), e.load(dir.filePath("short.npy").toStdString())});
            QFAIL("count mismatch accepted");
        } catch (const InputError& err) {
            QVERIFY2(QString(err.what()).contains("90 embedding rows for 91 responses"), err.what());
        }
    }

    void badJsonl() {
        expectInputError("{\"prompt_id\": 1, \"response\": \"ok fine\"}\n\n{\"prompt_id\": 1, \"respo",
                         "not valid JSON", 3);
        expectInputError("[1, 2]\n", "one JSON object", 1);
        expectInputError("{\"prompt_id\": 1, \"response\": \"ok\"}\n{\"response\": \"x\"}\n", "prompt_id", 2);
        expectInputError("{\"prompt_id\": 1, \"response\": 5}\n", "response", 1);
        expectInputError("{\"prompt_id\": 1, \"response\": \"a\", \"label\": \"maybe\"}\n"
                         "{\"prompt_id\": 1, \"response\": \"b\", \"label\": 2}\n"
                         "{\"prompt_id\": 1, \"response\": \"c\", \"label\": \"maybe\"}\n",
                         "unknown label values (use 1/\"hallucinated\", 0/\"genuine\" or null): \"maybe\", 2",
                         1);
        expectInputError("\n  \n", "no responses", 0);
        // Fewer than 2 labels per class: refused at run time with the file named.
        QTemporaryDir dir;
        const QString f = dir.filePath("few.jsonl");
        writeText(f, "{\"prompt_id\": 1, \"response\": \"aa bb\", \"label\": 1}\n"
                     "{\"prompt_id\": 1, \"response\": \"aa cc\", \"label\": 0}\n"
                     "{\"prompt_id\": 1, \"response\": \"aa dd\", \"label\": 0}\n");
        AporiaEngine e;
        QVERIFY_THROWS_EXCEPTION(InputError, runAporia(ParamSet(e.params()), 1, {e.load(f.toStdString())}));
        const QString z = dir.filePath("zero.jsonl");
        writeText(z, jsonlOf(3, 6, true) + "{\"prompt_id\": \"P0\", \"response\": \"? !\", \"label\": 0}\n");
        try {
            runAporia(smallParams(), 1, {e.load(z.toStdString())});
            QFAIL("zero TF-IDF row accepted");
        } catch (const InputError& err) {
            QCOMPARE(err.line(), int64_t(19));
        }
    }
};

QTEST_APPLESS_MAIN(TestAporia)
#include "tst_aporia.moc"
