// curve-scene-graph engine: invariant relation rules on hand-made cases, the spurious-cue
// generator, the JSON-lines reader (good and bad lines), gradients of the full relation model
// (CURVE loss) against finite differences, determinism, and the claims at a fixed seed.
#include "curve/CurveEngine.h"
#include "curve/CurveStudy.h"
#include "curve/SceneGraphReader.h"

#include "core/Errors.h"

#include <QtTest>

#include <cmath>

using namespace pl::curve;

namespace {

SceneObject agent(const char* id, ObjectType t, double x, double y, double vx, double vy) {
    SceneObject o;
    o.id = id;
    o.type = t;
    o.x = x;
    o.y = y;
    o.vx = vx;
    o.vy = vy;
    return o;
}

pl::ParamSet smallParams(const pl::curve::CurveEngine& e) {
    pl::ParamSet p(e.params());
    p.set("train_scenes", int64_t(120));
    p.set("test_scenes", int64_t(60));
    p.set("epochs", int64_t(2));
    p.set("target_scenes", int64_t(10));
    p.set("adapt_steps", int64_t(2));
    p.set("null_control", false);
    return p;
}

} // namespace

class TestCurve : public QObject {
    Q_OBJECT
private slots:
    void invariantRules() {
        // Head-on cars 20 m apart at 5 m/s each: meet after 2 s -> approaching (both directions).
        const auto a = agent("a", ObjectType::Car, 0, 0, 5, 0), b = agent("b", ObjectType::Car, 20, 0, -5, 0);
        QCOMPARE(invariantRelation(a, b), int(Approaching));
        QCOMPARE(invariantRelation(b, a), int(Approaching));
        // Same but 40 m apart: closest approach after 4 s, beyond the 3 s horizon -> none.
        const auto far = agent("c", ObjectType::Car, 40, 0, -5, 0);
        QCOMPARE(invariantRelation(a, far), int(None));
        // Lateral miss of 1.8 m: approaching for two cars (< 2 m), not for a pedestrian (>= 1.5 m).
        const auto side = agent("d", ObjectType::Car, 20, 1.8, -5, 0);
        QCOMPARE(invariantRelation(a, side), int(Approaching));
        const auto ped = agent("p", ObjectType::Pedestrian, 20, 1.8, -5, 0);
        QCOMPARE(invariantRelation(a, ped), int(None));
        // Following: same heading, 10 m ahead, same speed; asymmetric.
        const auto lead = agent("l", ObjectType::Car, 10, 0.5, 5, 0);
        QCOMPARE(invariantRelation(a, lead), int(Following));
        QCOMPARE(invariantRelation(lead, a), int(None));
        // Context objects never carry a relation.
        auto bg = agent("b", ObjectType::Background, 1, 0, 0, 0);
        QCOMPARE(invariantRelation(a, bg), int(None));
    }
    void cueFollowsRho() {
        // With rho = 1 every agent in an approaching relation gets a background object within
        // 3 m and nothing else does (no distractors); with s = 0 the cue is independent.
        QCOMPARE(effectiveRho(0.9, 0.0), 0.5);
        QCOMPARE(effectiveRho(0.9, 1.0), 0.9);
        EnvironmentSpec spec;
        spec.rho = 1.0;
        spec.distractors = 0;
        pl::Rng rng(3);
        int checked = 0;
        for (int k = 0; k < 200; ++k) {
            const Scene s = generateScene(spec, 0, Split::Train, rng);
            for (size_t i = 0; i < s.objects.size(); ++i) {
                if (!isAgent(s.objects[i].type))
                    continue;
                bool involved = false;
                for (const auto& r : s.relations)
                    involved =
                        involved || (r.relation == Approaching && (r.source == int(i) || r.target == int(i)));
                bool near = false;
                for (const auto& o : s.objects)
                    if (o.type == ObjectType::Background &&
                        std::hypot(o.x - s.objects[i].x, o.y - s.objects[i].y) <= 3.0 + 1e-9)
                        near = true;
                if (involved) {
                    QVERIFY(near);
                    ++checked;
                }
            }
            // Labels are the rules applied to the stored state (no observation noise here).
            for (const auto& r : s.relations)
                QCOMPARE(invariantRelation(s.objects[size_t(r.source)], s.objects[size_t(r.target)]),
                         r.relation);
        }
        QVERIFY(checked > 50);
    }
    void readerAcceptsSchema() {
        const std::string text =
            "# comment\n"
            "{\"env\":\"A\",\"split\":\"train\",\"objects\":[{\"id\":\"e\",\"type\":\"car\",\"x\":0,\"y\":0,"
            "\"vx\":5,"
            "\"vy\":0},{\"id\":\"p\",\"type\":\"pedestrian\",\"x\":8,\"y\":1,\"vx\":0,\"vy\":-1},{\"id\":"
            "\"k\","
            "\"type\":\"background\",\"x\":9,\"y\":2},{\"id\":\"w\",\"type\":\"weather\",\"rain\":1}],"
            "\"relations\":[{\"source\":\"e\",\"target\":\"p\",\"relation\":\"approaching\"}]}\r\n"
            "\n"
            "{\"env\":\"B\",\"split\":\"test_ood\",\"objects\":[{\"id\":\"e\",\"type\":\"car\",\"x\":0,\"y\":"
            "0,"
            "\"vx\":5,\"vy\":0},{\"id\":\"c\",\"type\":\"cyclist\",\"x\":8,\"y\":0,\"vx\":5,\"vy\":0}]}\n";
        const SceneSet s = parseSceneGraphLines(text, "ok.jsonl");
        QCOMPARE(int(s.scenes.size()), 2);
        QCOMPARE(int(s.envNames.size()), 2);
        QCOMPARE(s.scenes[0].relationOf(0, 1), int(Approaching));
        QCOMPARE(s.scenes[0].relationOf(1, 0), int(None));
        QCOMPARE(s.scenes[0].objects[3].rain, 1.0);
        QCOMPARE(int(s.scenes[1].split), int(Split::TestOod));
    }
    void readerRejects_data() {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("needle");
        const QString a = QStringLiteral("{\"id\":\"a\",\"type\":\"car\",\"x\":0,\"y\":0,\"vx\":1,\"vy\":0}");
        const QString b =
            QStringLiteral("{\"id\":\"b\",\"type\":\"car\",\"x\":5,\"y\":0,\"vx\":-1,\"vy\":0}");
        auto scene = [](const QString& objs, const QString& extra = {}) {
            return QStringLiteral("{\"env\":\"e\",\"objects\":[") + objs + QStringLiteral("]") + extra +
                   QStringLiteral("}");
        };
        QTest::newRow("junk") << QStringLiteral("{oops") << QStringLiteral("not valid JSON");
        QTest::newRow("array") << QStringLiteral("[1,2]") << QStringLiteral("one JSON object");
        QTest::newRow("no env") << QStringLiteral("{\"objects\":[]}") << QStringLiteral("scene.env");
        QTest::newRow("dup id") << scene(a + "," + a) << QStringLiteral("duplicate id");
        QTest::newRow("type") << scene(a + ",{\"id\":\"t\",\"type\":\"truck\",\"x\":0,\"y\":0}")
                              << QStringLiteral("unknown type 'truck'");
        QTest::newRow("missing vx") << scene(a + ",{\"id\":\"b\",\"type\":\"car\",\"x\":5,\"y\":0,\"vy\":0}")
                                    << QStringLiteral("objects[1].vx': missing");
        QTest::newRow("string x")
            << scene(a + ",{\"id\":\"b\",\"type\":\"car\",\"x\":\"5\",\"y\":0,\"vx\":0,\"vy\":0}")
            << QStringLiteral("expected a number");
        QTest::newRow("overflow")
            << scene(a + ",{\"id\":\"b\",\"type\":\"car\",\"x\":1e999,\"y\":0,\"vx\":0,\"vy\":0}")
            << QStringLiteral("line 1");
        QTest::newRow("huge") << scene(a +
                                       ",{\"id\":\"b\",\"type\":\"car\",\"x\":1e6,\"y\":0,\"vx\":0,\"vy\":0}")
                              << QStringLiteral("magnitude");
        QTest::newRow("one agent") << scene(a) << QStringLiteral("at least 2 agents");
        QTest::newRow("rain") << scene(a + "," + b + ",{\"id\":\"w\",\"type\":\"weather\",\"rain\":0.5}")
                              << QStringLiteral("expected 0 or 1");
        QTest::newRow("moving bg")
            << scene(a + "," + b + ",{\"id\":\"k\",\"type\":\"background\",\"x\":1,\"y\":1,\"vx\":2}")
            << QStringLiteral("only agents move");
        QTest::newRow("rel id")
            << scene(a + "," + b,
                     ",\"relations\":[{\"source\":\"a\",\"target\":\"z\",\"relation\":\"following\"}]")
            << QStringLiteral("unknown object id 'z'");
        QTest::newRow("rel name")
            << scene(a + "," + b,
                     ",\"relations\":[{\"source\":\"a\",\"target\":\"b\",\"relation\":\"likes\"}]")
            << QStringLiteral("unknown relation 'likes'");
        QTest::newRow("split") << QStringLiteral("{\"env\":\"e\",\"split\":\"dev\",\"objects\":[]}")
                               << QStringLiteral("unknown split");
    }
    void readerRejects() {
        QFETCH(QString, line);
        QFETCH(QString, needle);
        // The bad scene is on line 3 (after a comment and a good scene).
        const std::string good =
            "{\"env\":\"e\",\"objects\":[{\"id\":\"a\",\"type\":\"car\",\"x\":0,\"y\":0,\"vx\":1,"
            "\"vy\":0},{\"id\":\"b\",\"type\":\"car\",\"x\":5,\"y\":0,\"vx\":-1,\"vy\":0}]}";
        const std::string text = "# header\n" + good + "\n" + line.toStdString() + "\n";
        try {
            parseSceneGraphLines(text, "bad.jsonl");
            QFAIL("no error");
        } catch (const pl::InputError& e) {
            const QString msg = QString::fromStdString(e.what());
            QCOMPARE(e.line(), int64_t(3));
            QVERIFY2(msg.contains(QStringLiteral("bad.jsonl")), qPrintable(msg));
            QVERIFY2(msg.contains(needle) || (needle == QStringLiteral("line 1") && e.line() == 3),
                     qPrintable(msg));
        }
    }
    void tooManyObjects() {
        std::string objs;
        for (int i = 0; i < 65; ++i)
            objs += (i ? "," : "") + std::string("{\"id\":\"o") + std::to_string(i) +
                    "\",\"type\":\"car\",\"x\":0,\"y\":0,\"vx\":0,\"vy\":0}";
        try {
            parseSceneGraphLines("{\"env\":\"e\",\"objects\":[" + objs + "]}\n", "big.jsonl");
            QFAIL("no error");
        } catch (const pl::InputError& e) {
            QVERIFY(QString::fromStdString(e.what()).contains(QStringLiteral("more than 64")));
        }
    }
    void modelGradients() {
        // The whole CURVE loss path of one batch (variational edges, message passing, prototypes)
        // against central finite differences on a few entries of every parameter.
        StudySettings st;
        st.trainScenes = 4;
        st.testScenes = 1;
        st.targetScenes = 0;
        const SceneSet set = makeSyntheticScenes(st, pl::Rng(5));
        std::vector<const Scene*> train;
        for (const auto& s : set.scenes)
            if (s.split == Split::Train)
                train.push_back(&s);
        const GraphBatch b = buildBatch(train);
        ModelConfig mc;
        mc.hidden = 6;
        mc.variational = true;
        mc.prototypes = true;
        RelationModel m(mc, pl::Rng(9));
        pl::Rng er(4);
        pl::nn::Mat eps(Eigen::Index(b.src.size()), 1);
        for (Eigen::Index i = 0; i < eps.rows(); ++i)
            eps(i, 0) = er.normal();
        auto loss = [&](bool backward) {
            pl::nn::Tape t;
            const auto f = m.forward(t, b, &eps, 0.5);
            pl::nn::Var l = pl::nn::mean(pl::nn::softmaxCrossEntropy(f.logits, b.pairLabel));
            l = pl::nn::add(l, pl::nn::mean(pl::nn::klGaussian(f.mu, f.logvar, -2.0, 1.0)));
            l = pl::nn::add(l, pl::nn::mean(pl::nn::softmaxCrossEntropy(f.protoLogits, b.pairEnv)));
            if (backward)
                t.backward(l);
            return l.scalar();
        };
        for (auto* p : m.parameters())
            p->zeroGrad();
        loss(true);
        double worst = 0;
        for (auto* p : m.parameters())
            for (Eigen::Index i = 0; i < p->value.size();
                 i += std::max<Eigen::Index>(1, p->value.size() / 5)) {
                const double keep = p->value(i), h = 1e-6;
                p->value(i) = keep + h;
                const double up = loss(false);
                p->value(i) = keep - h;
                const double dn = loss(false);
                p->value(i) = keep;
                const double num = (up - dn) / (2 * h), an = p->grad(i);
                worst = std::max(worst, std::abs(num - an) / std::max(1.0, std::abs(num) + std::abs(an)));
            }
        QVERIFY2(worst < 1e-6, QByteArray::number(worst));
    }
    void deterministicAndCancellable() {
        CurveEngine e;
        const pl::ParamSet p = smallParams(e);
        pl::RunContext c1(42), c2(42), c3(43);
        const auto a = e.run({}, p, c1), b = e.run({}, p, c2), c = e.run({}, p, c3);
        QCOMPARE(a.toJson(), b.toJson());
        QVERIFY(a.toJson() != c.toJson());
        for (const char* k : {"ood_accuracy_curve", "ood_accuracy_baseline", "id_accuracy_curve",
                              "id_accuracy_baseline", "uncertainty_spurious", "uncertainty_invariant"})
            QVERIFY2(a.metrics.count(k) && std::isfinite(a.metrics.at(k)), k);
        QVERIFY(a.series.count("train_loss_curve") && !a.series.at("train_loss_curve").y.empty());
        const std::string key = "scene_" + std::to_string(int(a.metrics.at("shown_scene")));
        QVERIFY(a.graphs.count(key) && !a.graphs.at(key).edges.empty());
        pl::RunContext stop(1);
        int calls = 0;
        stop.setCancelQuery([&calls] { return ++calls > 3; });
        bool cancelled = false;
        try {
            e.run({}, p, stop);
        } catch (const pl::Cancelled&) {
            cancelled = true;
        }
        QVERIFY(cancelled);
    }
    void claimsAtFixedSeeds() {
        // Default settings at seeds 1, 2, 3 (frozen for this build): CURVE's OOD gain and the
        // uncertainty ordering on average, and the flipped cue hurting the baseline on each seed.
        CurveEngine e;
        pl::ParamSet p(e.params());
        double c1 = 0, c2 = 0;
        for (uint64_t seed : {1, 2, 3}) {
            pl::RunContext ctx(seed);
            const auto d = e.run({}, p, ctx);
            std::map<std::string, pl::Claim> c;
            for (const auto& cl : d.claims)
                c[cl.id] = cl;
            QVERIFY(c.count("c1-ood-beats-baseline") && c.count("c2-uncertainty-spurious-higher"));
            QVERIFY(!c.count("c3-no-spurious-no-gap")); // control off by default
            qInfo("seed %d: c1 %+.2f points (%s), c2 %+.4f (%s)", int(seed),
                  c["c1-ood-beats-baseline"].observed, c["c1-ood-beats-baseline"].holds ? "holds" : "fails",
                  c["c2-uncertainty-spurious-higher"].observed,
                  c["c2-uncertainty-spurious-higher"].holds ? "holds" : "fails");
            c1 += c["c1-ood-beats-baseline"].observed / 3;
            c2 += c["c2-uncertainty-spurious-higher"].observed / 3;
            QVERIFY(d.metrics.at("ood_accuracy_baseline") < d.metrics.at("id_accuracy_baseline"));
        }
        QVERIFY2(c1 > 0, QByteArray::number(c1));
        QVERIFY2(c2 > 0, QByteArray::number(c2));
    }
    void nullControl() {
        // The s = 0 control retrains both models on cue-free scenes; its claim reports the OOD
        // difference in points, computed from the reported metrics.
        CurveEngine e;
        pl::ParamSet p(e.params());
        p.set("null_control", true);
        pl::RunContext ctx(1);
        const auto d = e.run({}, p, ctx);
        const pl::Claim* c3 = nullptr;
        for (const auto& cl : d.claims)
            if (cl.id == "c3-no-spurious-no-gap")
                c3 = &cl;
        QVERIFY(c3);
        const double expect = 100 * std::abs(d.metrics.at("null_ood_accuracy_curve") -
                                             d.metrics.at("null_ood_accuracy_baseline"));
        QCOMPARE(c3->observed, expect);
        QCOMPARE(c3->holds, expect <= 3.0);
        qInfo("seed 1: c3 %.2f points (%s); main-run gap %+.2f points", c3->observed,
              c3->holds ? "holds" : "fails",
              100 * (d.metrics.at("ood_accuracy_curve") - d.metrics.at("ood_accuracy_baseline")));
    }
};

QTEST_APPLESS_MAIN(TestCurve)
#include "tst_curve.moc"
