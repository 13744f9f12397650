// PanelStateCodec: the "Copy state" string (non-default parameters and the seed, URL-encoded)
// round-trips, and every malformed or foreign string is refused without touching the outputs.
#include "sdk/PanelStateCodec.h"

#include <QtTest>

using namespace pl;

namespace {

std::vector<ParamSpec> specs() {
    ParamSpec text;
    text.key = "label";
    text.label = "Label";
    text.type = ParamType::String;
    text.defaultValue = std::string("plain");
    return {ParamSpec::choice("solver", "Solver", {"prm_plus", "ssn", "hybrid"}, "hybrid", "solver"),
            ParamSpec::integer("rows", "Rows", 2, 2000, 50, "rows"),
            ParamSpec::real("target_gap", "Target", 1e-12, 1e-3, 1e-10, "gap", {}, true),
            ParamSpec::boolean("compare", "Compare", true, "compare"), text};
}

} // namespace

class TstPanelState : public QObject {
    Q_OBJECT
private slots:
    void defaultsGiveOnlyTheSeed();
    void onlyNonDefaultsAreWritten();
    void roundTrip();
    void specialCharactersAreEncoded();
    void seedIsOptional();
    void pluginIdOf();
    void badStringsAreRefused_data();
    void badStringsAreRefused();
};

void TstPanelState::defaultsGiveOnlyTheSeed() {
    const ParamSet ps(specs());
    QCOMPARE(PanelStateCodec::encode("ssn-nash", ps, 42), QStringLiteral("paperlab:ssn-nash?seed=42"));
}

void TstPanelState::onlyNonDefaultsAreWritten() {
    ParamSet ps(specs());
    ps.setText("solver", "prm_plus");
    ps.setText("rows", "40");
    const QString s = PanelStateCodec::encode("ssn-nash", ps, 7);
    QCOMPARE(s, QStringLiteral("paperlab:ssn-nash?seed=7&solver=prm_plus&rows=40"));
}

void TstPanelState::roundTrip() {
    ParamSet ps(specs());
    ps.setText("solver", "ssn");
    ps.setText("rows", "123");
    ps.setText("target_gap", "3.5e-11");
    ps.setText("compare", "false");
    const uint64_t bigSeed = 18446744073709551615ull;
    const QString s = PanelStateCodec::encode("ssn-nash", ps, bigSeed);
    ParamSet back;
    uint64_t seed = 0;
    QString error;
    QVERIFY2(PanelStateCodec::decode(s, "ssn-nash", specs(), &back, &seed, &error), qPrintable(error));
    QVERIFY(back == ps);
    QCOMPARE(seed, bigSeed);
}

void TstPanelState::specialCharactersAreEncoded() {
    ParamSet ps(specs());
    ps.set("label", std::string("a b&c=d?é"));
    const QString s = PanelStateCodec::encode("ssn-nash", ps, 1);
    QVERIFY(!s.contains(QLatin1Char(' ')));
    QVERIFY(s.contains(QStringLiteral("label=a%20b%26c%3Dd%3F%C3%A9")));
    ParamSet back;
    uint64_t seed = 0;
    QVERIFY(PanelStateCodec::decode(s, "ssn-nash", specs(), &back, &seed, nullptr));
    QCOMPARE(back.getString("label"), std::string("a b&c=d?é"));
    // Surrounding whitespace from a clipboard is tolerated.
    QVERIFY(PanelStateCodec::decode(QStringLiteral("  ") + s + QStringLiteral("\n"), "ssn-nash", specs(),
                                    &back, &seed, nullptr));
}

void TstPanelState::seedIsOptional() {
    ParamSet back;
    uint64_t seed = 0;
    QVERIFY(PanelStateCodec::decode("paperlab:ssn-nash?rows=3", "ssn-nash", specs(), &back, &seed, nullptr));
    QCOMPARE(seed, uint64_t(42));
    QCOMPARE(back.getInt("rows"), int64_t(3));
    QVERIFY(PanelStateCodec::decode("paperlab:ssn-nash", "ssn-nash", specs(), &back, &seed, nullptr));
    QVERIFY(back == ParamSet(specs()));
}

void TstPanelState::pluginIdOf() {
    QCOMPARE(PanelStateCodec::pluginIdOf("paperlab:ftrl-potential-games?seed=1"),
             QStringLiteral("ftrl-potential-games"));
    QCOMPARE(PanelStateCodec::pluginIdOf("paperlab:x"), QStringLiteral("x"));
    QCOMPARE(PanelStateCodec::pluginIdOf("https://example.org"), QString());
}

void TstPanelState::badStringsAreRefused_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("why");
    QTest::newRow("empty") << ""
                           << "paperlab:";
    QTest::newRow("other scheme") << "http://ssn-nash?seed=1"
                                  << "paperlab:";
    QTest::newRow("no panel") << "paperlab:?seed=1"
                              << "no panel";
    QTest::newRow("other panel") << "paperlab:ftrl-potential-games?seed=1"
                                 << "ftrl-potential-games";
    QTest::newRow("unknown key") << "paperlab:ssn-nash?seed=1&colour=red"
                                 << "colour";
    QTest::newRow("bad choice") << "paperlab:ssn-nash?solver=magic"
                                << "solver";
    QTest::newRow("out of range") << "paperlab:ssn-nash?rows=1"
                                  << "rows";
    QTest::newRow("not a number") << "paperlab:ssn-nash?rows=ten"
                                  << "rows";
    QTest::newRow("bad bool") << "paperlab:ssn-nash?compare=maybe"
                              << "compare";
    QTest::newRow("bad seed") << "paperlab:ssn-nash?seed=-3"
                              << "seed";
    QTest::newRow("huge seed") << "paperlab:ssn-nash?seed=18446744073709551616"
                               << "seed";
    QTest::newRow("twice") << "paperlab:ssn-nash?rows=3&rows=4"
                           << "twice";
    QTest::newRow("no equals") << "paperlab:ssn-nash?rows"
                               << "KEY=VALUE";
    QTest::newRow("not encoded") << "paperlab:ssn-nash?label=a b"
                                 << "URL-encoded";
}

void TstPanelState::badStringsAreRefused() {
    QFETCH(QString, text);
    QFETCH(QString, why);
    ParamSet out(specs());
    out.setText("rows", "77");
    const ParamSet before = out;
    uint64_t seed = 5;
    QString error;
    QVERIFY(!PanelStateCodec::decode(text, "ssn-nash", specs(), &out, &seed, &error));
    QVERIFY2(error.contains(why), qPrintable(error));
    QVERIFY(out == before);
    QCOMPARE(seed, uint64_t(5));
}

QTEST_GUILESS_MAIN(TstPanelState)
#include "tst_panelstate.moc"
