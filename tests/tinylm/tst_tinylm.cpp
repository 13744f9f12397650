// engines/tinylm: the .safetensors reader (round trip, every kind of bad header), model building
// (missing / misshaped tensors named), the transformer and mlp_lm forward passes against the numpy
// transcription tinylm_oracle.py on the stored fixtures (causal, random and sink + recent masks,
// batch path and KV-cache path), the KV-cache views, prompt files, and mlp_lm training.
#include "core/Errors.h"
#include "core/Rng.h"
#include "tinylm/KvCache.h"
#include "tinylm/MlpLm.h"
#include "tinylm/Prompts.h"
#include "tinylm/SafeTensors.h"
#include "tinylm/TinyModel.h"
#include "tinylm/TransformerForward.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace pl;
using namespace pl::tinylm;

namespace {

const QString kData = QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/data/tinylm/");
const QString kOracle = QStringLiteral(PAPERLAB_SOURCE_DIR "/tests/tinylm/tinylm_oracle.py");

bool haveNumpy() {
    if (!QFile::exists("/usr/bin/python3"))
        return false;
    QProcess p;
    p.start("/usr/bin/python3", {"-c", "import numpy"});
    return p.waitForFinished(60000) && p.exitCode() == 0;
}

/// Runs the oracle on a model file and a case; returns its logits (empty on failure).
Mat oracle(const QString& model, const QJsonObject& c) {
    QTemporaryDir dir;
    QFile f(dir.filePath("case.json"));
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write(QJsonDocument(c).toJson());
    f.close();
    QProcess py;
    py.start("/usr/bin/python3", {kOracle, model, f.fileName()});
    if (!py.waitForFinished(120000) || py.exitCode() != 0) {
        qWarning("%s", py.readAllStandardError().constData());
        return {};
    }
    const QJsonArray rows = QJsonDocument::fromJson(py.readAllStandardOutput()).object()["logits"].toArray();
    Mat m(rows.size(), rows.isEmpty() ? 0 : rows[0].toArray().size());
    for (int r = 0; r < rows.size(); ++r)
        for (int c2 = 0; c2 < m.cols(); ++c2)
            m(r, c2) = rows[r].toArray()[c2].toDouble();
    return m;
}

QJsonArray jsonInts(const std::vector<int>& v) {
    QJsonArray a;
    for (int x : v)
        a.append(x);
    return a;
}

QJsonArray jsonMask(const std::vector<std::vector<char>>& m) {
    QJsonArray a;
    for (const auto& row : m) {
        QJsonArray r;
        for (char c : row)
            r.append(int(c));
        a.append(r);
    }
    return a;
}

TransformerModel loadTransformer(const QString& name) {
    return modelFromSafeTensors(readSafeTensors((kData + name).toStdString()), name.toStdString())
        .transformer;
}

/// One batch over an empty cache: row r reads the earlier rows mask[r][c] = 1 (and itself).
Mat batchLogits(const TransformerModel& m, const std::vector<int>& tokens,
                const std::vector<std::vector<char>>& mask) {
    KvCache cache(int(m.layers.size()), m.dModel(), 4);
    std::vector<RowSpec> rows;
    for (size_t r = 0; r < tokens.size(); ++r) {
        RowSpec s;
        s.token = tokens[r];
        s.pos = int(r);
        for (size_t c = 0; c < r; ++c)
            if (mask[r][c])
                s.batchKeys.push_back(int(c));
        rows.push_back(s);
    }
    return forwardBatch(m, cache, rows).logits;
}

std::string bytesOf(const SafeTensorsFile& f) {
    return writeSafeTensors(f);
}

std::string withHeader(const std::string& json, size_t dataBytes) {
    std::string out(8, '\0');
    for (int b = 0; b < 8; ++b)
        out[size_t(b)] = char((uint64_t(json.size()) >> (8 * b)) & 0xff);
    return out + json + std::string(dataBytes, '\0');
}

} // namespace

class TestTinyLm : public QObject {
    Q_OBJECT
private slots:
    void safetensorsRoundTrip() {
        SafeTensorsFile f;
        f.metadata = {{"arch", "mlp_lm"}, {"window", "2"}};
        f.tensors["a"] = Tensor{{2, 3}, "F64", {1, 2, 3, 4, 5, 6.5}};
        f.tensors["b"] = Tensor{{4}, "F64", {-1, 0.25, 1e-300, 7}};
        for (bool f32 : {false, true}) {
            const SafeTensorsFile g = parseSafeTensors(writeSafeTensors(f, f32), "x");
            QCOMPARE(g.metadata, f.metadata);
            QCOMPARE(g.tensors.size(), size_t(2));
            QCOMPARE(g.tensors.at("a").shape, (std::vector<int64_t>{2, 3}));
            QCOMPARE(g.tensors.at("a").dtype, std::string(f32 ? "F32" : "F64"));
            for (size_t i = 0; i < 4; ++i)
                QCOMPARE(g.tensors.at("b").data[i],
                         f32 ? double(float(f.tensors["b"].data[i])) : f.tensors["b"].data[i]);
        }
    }

    void safetensorsBadHeaders() {
        const std::vector<std::pair<std::string, std::string>> bad = {
            {"short", std::string("\x05\0\0", 3)},
            {"length beyond file", std::string("\x7f\0\0\0\0\0\0\0{}", 10)},
            {"not json", withHeader("{\"a\": [", 0)},
            {"not an object", withHeader("[1, 2]", 0)},
            {"dtype", withHeader(R"({"a": {"dtype": "I32", "shape": [1], "data_offsets": [0, 4]}})", 4)},
            {"shape vs bytes",
             withHeader(R"({"a": {"dtype": "F64", "shape": [2], "data_offsets": [0, 8]}})", 8)},
            {"beyond buffer",
             withHeader(R"({"a": {"dtype": "F64", "shape": [2], "data_offsets": [0, 16]}})", 8)},
            {"overlap", withHeader(R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
                                       "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}})",
                                   12)},
            {"negative shape",
             withHeader(R"({"a": {"dtype": "F64", "shape": [-1], "data_offsets": [0, 8]}})", 8)},
            {"metadata value", withHeader(R"({"__metadata__": {"arch": 3}})", 0)},
            {"huge number",
             withHeader(R"({"a": {"dtype": "F64", "shape": [1e400], "data_offsets": [0, 8]}})", 8)},
            {"no offsets", withHeader(R"({"a": {"dtype": "F64", "shape": [1]}})", 8)},
        };
        for (const auto& [what, bytes] : bad) {
            bool threw = false;
            try {
                parseSafeTensors(bytes, "bad.safetensors");
            } catch (const InputError& e) {
                threw = std::string(e.what()).find("bad.safetensors") != std::string::npos;
            }
            QVERIFY2(threw, what.c_str());
        }
    }

    void modelErrorsNameTheTensor() {
        const SafeTensorsFile good = readSafeTensors((kData + "tf-layernorm-gelu.safetensors").toStdString());
        QCOMPARE(modelFromSafeTensors(good, "m").transformer.layers.size(), size_t(2));
        auto expect = [](const SafeTensorsFile& f, const char* needle) {
            try {
                modelFromSafeTensors(f, "m.safetensors");
            } catch (const InputError& e) {
                if (std::string(e.what()).find(needle) == std::string::npos)
                    qWarning("%s", e.what());
                return std::string(e.what()).find(needle) != std::string::npos;
            }
            return false;
        };
        SafeTensorsFile missing = good;
        missing.tensors.erase("layers.1.attn.wk");
        QVERIFY(expect(missing, "missing tensor 'layers.1.attn.wk'"));
        SafeTensorsFile shaped = good;
        shaped.tensors["head"].shape = {12, 10};
        shaped.tensors["head"].data.resize(120);
        QVERIFY(expect(shaped, "tensor 'head' has shape [12, 10], expected [12, 20]"));
        SafeTensorsFile arch = good;
        arch.metadata["arch"] = "rnn";
        QVERIFY(expect(arch, "'arch'"));
        SafeTensorsFile heads = good;
        heads.metadata["n_heads"] = "5";
        QVERIFY(expect(heads, "n_heads"));
        // The model's own file form reads back to the same model.
        const TransformerModel m = modelFromSafeTensors(good, "m").transformer;
        const TransformerModel back =
            modelFromSafeTensors(parseSafeTensors(bytesOf(toSafeTensors(m)), "b"), "b").transformer;
        QCOMPARE(back.layers[1].w2, m.layers[1].w2);
        QCOMPARE(back.lnfb, m.lnfb);
    }

    void transformerMatchesNumpy_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("layernorm, gelu, 2 heads, MLPs") << "tf-layernorm-gelu.safetensors";
        QTest::newRow("no norm, relu, 3 heads, one MLP") << "tf-none-relu.safetensors";
        QTest::newRow("F32, 1 layer") << "tf-f32.safetensors";
    }
    void transformerMatchesNumpy() {
        if (!haveNumpy())
            QSKIP("/usr/bin/python3 with numpy not available");
        QFETCH(QString, file);
        const TransformerModel m = loadTransformer(file);
        const int T = std::min(22, m.maxPositions());
        Rng rng(5);
        std::vector<int> tokens;
        for (int i = 0; i < T; ++i)
            tokens.push_back(int(rng.uniformInt(uint64_t(m.vocab()))));
        std::vector<std::vector<char>> causal(size_t(T), std::vector<char>(size_t(T), 0)), random = causal,
                                                                                           stream = causal;
        const int prefix = 8, sink = 2, recent = 4;
        for (int r = 0; r < T; ++r)
            for (int c = 0; c <= r; ++c) {
                causal[size_t(r)][size_t(c)] = 1;
                random[size_t(r)][size_t(c)] = c == r || rng.uniform() < 0.5;
                stream[size_t(r)][size_t(c)] = r < prefix || c == r || c < sink || c >= r - recent;
            }
        // Batch path, causal and random masks.
        for (const auto* mask : {&causal, &random}) {
            const Mat want = oracle(kData + file, {{"tokens", jsonInts(tokens)}, {"mask", jsonMask(*mask)}});
            QCOMPARE(want.rows(), Eigen::Index(T));
            const Mat got = batchLogits(m, tokens, *mask);
            QVERIFY2((got - want).cwiseAbs().maxCoeff() < 1e-9,
                     qPrintable(QString::number((got - want).cwiseAbs().maxCoeff())));
        }
        // Cache path: prefill the prefix, then one row at a time reading a sink + recent view.
        const Mat want = oracle(kData + file, {{"tokens", jsonInts(tokens)}, {"mask", jsonMask(stream)}});
        KvCache cache(int(m.layers.size()), m.dModel(), T);
        std::vector<RowSpec> pre;
        for (int r = 0; r < prefix; ++r) {
            RowSpec s{tokens[size_t(r)], r, nullptr, {}};
            for (int c = 0; c < r; ++c)
                s.batchKeys.push_back(c);
            pre.push_back(s);
        }
        const BatchOutput po = forwardBatch(m, cache, pre);
        for (int r = 0; r < prefix; ++r)
            commitRow(cache, po, r);
        QVERIFY((po.logits - want.topRows(prefix)).cwiseAbs().maxCoeff() < 1e-9);
        const StreamingView view(sink, recent);
        for (int r = prefix; r < T; ++r) {
            const BatchOutput o = forwardBatch(m, cache, {RowSpec{tokens[size_t(r)], r, &view, {}}});
            QVERIFY2((o.logits.row(0) - want.row(r)).cwiseAbs().maxCoeff() < 1e-9,
                     qPrintable(QString::number(r)));
            commitRow(cache, o, 0);
        }
    }

    void incrementalEqualsBatchBitForBit() {
        const TransformerModel m = loadTransformer("tf-layernorm-gelu.safetensors");
        std::vector<int> tokens;
        for (int i = 0; i < 20; ++i)
            tokens.push_back((i * 7 + 3) % m.vocab());
        std::vector<std::vector<char>> causal(20, std::vector<char>(20, 1));
        const Mat batch = batchLogits(m, tokens, causal);
        KvCache cache(int(m.layers.size()), m.dModel(), 20);
        for (int r = 0; r < 20; ++r) {
            const BatchOutput o = forwardBatch(m, cache, {RowSpec{tokens[size_t(r)], r, nullptr, {}}});
            for (Eigen::Index j = 0; j < batch.cols(); ++j)
                QCOMPARE(o.logits(0, j), batch(r, j)); // exact, not approximate
            commitRow(cache, o, 0);
        }
    }

    void mlpMatchesNumpy_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("tanh, window 3") << "mlp-tanh.safetensors";
        QTest::newRow("relu, F32, pad 4") << "mlp-relu-f32.safetensors";
    }
    void mlpMatchesNumpy() {
        if (!haveNumpy())
            QSKIP("/usr/bin/python3 with numpy not available");
        QFETCH(QString, file);
        const MlpLmModel m =
            modelFromSafeTensors(readSafeTensors((kData + file).toStdString()), file.toStdString()).mlp;
        Rng rng(9);
        std::vector<int> seq;
        for (int i = 0; i < 12; ++i)
            seq.push_back(int(rng.uniformInt(uint64_t(m.vocab()))));
        std::vector<std::vector<int>> ctx;
        QJsonArray jc;
        for (int t = 0; t < 12; ++t) {
            ctx.push_back(mlpContext(m, seq, t));
            jc.append(jsonInts(ctx.back()));
        }
        QCOMPARE(ctx[0], std::vector<int>(size_t(m.window), m.padId));
        const Mat want = oracle(kData + file, {{"contexts", jc}});
        const Mat got = mlpForward(m, ctx).logits;
        QCOMPARE(want.rows(), got.rows());
        QVERIFY((got - want).cwiseAbs().maxCoeff() < 1e-9);
    }

    void views() {
        KvCache c(1, 4, 64);
        std::vector<double> k(4, 0.0);
        for (int i = 0; i < 40; ++i) {
            k[0] = i == 13 ? 10.0 : 0.01 * i;
            c.append({k.data()}, {k.data()});
        }
        std::vector<int> out;
        StreamingView(3, 5).select(c, 0, 0, 4, k.data(), out);
        QCOMPARE(out, (std::vector<int>{0, 1, 2, 35, 36, 37, 38, 39}));
        const double q[4] = {1, 0, 0, 0};
        QuestView(16, 8).select(c, 0, 0, 4, q, out); // pages of 8: the one holding 13 and the last
        QCOMPARE(out.size(), size_t(16));
        QCOMPARE(out.front(), 8);
        QCOMPARE(out.back(), 39);
        QuestView(64, 8).select(c, 0, 0, 4, q, out);
        QCOMPARE(out.size(), size_t(40));
        H2oView h(1, 1, 6, 3);
        h.observe(0, 0, {4, 20, 21}, {0.5, 0.2, 0.3});
        h.select(c, 0, 0, 4, q, out);
        QCOMPARE(out, (std::vector<int>{4, 20, 21, 37, 38, 39}));
    }

    void prompts() {
        const PromptSet p = parsePrompts("1 2 3\n4\t5\n", "p.txt");
        QCOMPARE(p.seqs.size(), size_t(2));
        QCOMPARE(p.columns[1], (std::vector<int>{1, 3}));
        auto fails = [](const std::string& text, int line, int col) {
            try {
                parsePrompts(text, "p.txt");
            } catch (const InputError& e) {
                return e.line() == line && e.column() == col;
            }
            return false;
        };
        QVERIFY(fails("1 2\n3 x4\n", 2, 3));
        QVERIFY(fails("1 2\n\n3\n", 2, 1));
        QVERIFY(fails("", 1, 1));
        QVERIFY(fails("1 -2", 1, 3));
        bool ok = false;
        try {
            checkPromptIds(parsePrompts("1 2\n3 40 5\n", "p.txt"), 32);
        } catch (const InputError& e) {
            ok = e.line() == 2 && e.column() == 3;
        }
        QVERIFY(ok);
        ok = false;
        try {
            checkPromptLengths(parsePrompts("1 2\n3 4 5\n", "p.txt"), 6, 8);
        } catch (const InputError& e) {
            ok = e.line() == 2;
        }
        QVERIFY(ok);
    }

    void mlpTrainingLearnsASequence() {
        // next = (prev + prev2) mod 13: needs the window of 2.
        std::vector<std::vector<int>> seqs;
        Rng rng(3);
        for (int s = 0; s < 60; ++s) {
            std::vector<int> q{int(rng.uniformInt(13)), int(rng.uniformInt(13))};
            while (q.size() < 24)
                q.push_back((q[q.size() - 1] + q[q.size() - 2]) % 13);
            seqs.push_back(q);
        }
        MlpTrainConfig c;
        c.window = 2;
        c.embed = 8;
        c.hidden1 = 48;
        c.hidden2 = 32;
        c.epochs = 40;
        c.batch = 64;
        c.lr = 1e-2;
        c.padId = 0;
        std::vector<double> loss;
        const MlpLmModel m = trainMlpLm(seqs, 13, c, Rng(1), &loss);
        QVERIFY(loss.back() < 0.5 * loss.front());
        int right = 0, total = 0;
        for (const auto& q : seqs)
            for (int t = 2; t < int(q.size()); ++t) {
                const MlpOutput o = mlpForward(m, {mlpContext(m, q, t)});
                right += argmaxRow(o.logits, 0) == q[size_t(t)];
                ++total;
            }
        QVERIFY2(right > 0.9 * total, qPrintable(QString::number(double(right) / total)));
        // Deterministic in the seed.
        QCOMPARE(trainMlpLm(seqs, 13, c, Rng(1)).w1, m.w1);
    }
};

QTEST_GUILESS_MAIN(TestTinyLm)
#include "tst_tinylm.moc"
