// Colour maps, nice ticks and series decimation: pure functions.

#include "widgets/Colormap.h"
#include "widgets/NiceScale.h"
#include "widgets/SeriesDecimator.h"

#include <QtTest>

#include <cmath>

using namespace pl::gui;

class TestColormap : public QObject {
    Q_OBJECT
private slots:
    void viridisEndpoints();
    void magmaEndpoints();
    void sequentialLightnessIsMonotonic_data();
    void sequentialLightnessIsMonotonic();
    void divergingIsCentredAndSymmetric();
    void qualitativeIsOkabeIto();
    void nanAndClamping();
    void names();
    void niceTicks();
    void tickFormats();
    void roundTrip();
    void decimateKeepsExtremes();
    void decimateUnsortedAndSmall();
    void gridThinScatter();
    void steps();
};

static int channelDistance(QRgb a, QRgb b) {
    return std::max(
        {std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)), std::abs(qBlue(a) - qBlue(b))});
}

void TestColormap::viridisEndpoints() {
    const Colormap m = Colormap::byName(QStringLiteral("viridis"));
    QCOMPARE(m.table().size(), 256);
    // matplotlib's viridis starts at #440154 and ends at #fde725.
    QVERIFY2(channelDistance(m.lookup(0.0), qRgb(0x44, 0x01, 0x54)) <= 4,
             qPrintable(QString::number(m.lookup(0.0), 16)));
    QVERIFY2(channelDistance(m.lookup(1.0), qRgb(0xfd, 0xe7, 0x25)) <= 6,
             qPrintable(QString::number(m.lookup(1.0), 16)));
    // Midpoint is the teal #21918c.
    QVERIFY(channelDistance(m.lookup(0.5), qRgb(0x21, 0x91, 0x8c)) <= 6);
}

void TestColormap::magmaEndpoints() {
    const Colormap m = Colormap::byName(QStringLiteral("magma"));
    QVERIFY(channelDistance(m.lookup(0.0), qRgb(0x00, 0x00, 0x04)) <= 4);
    QVERIFY(channelDistance(m.lookup(1.0), qRgb(0xfc, 0xfd, 0xbf)) <= 6);
}

void TestColormap::sequentialLightnessIsMonotonic_data() {
    QTest::addColumn<QString>("name");
    QTest::newRow("viridis") << QStringLiteral("viridis");
    QTest::newRow("magma") << QStringLiteral("magma");
    QTest::newRow("gray") << QStringLiteral("gray");
}

void TestColormap::sequentialLightnessIsMonotonic() {
    QFETCH(QString, name);
    const Colormap m = Colormap::byName(name);
    double prev = -1;
    for (int i = 0; i < 256; i += 8) {
        const double l = Colormap::lightness(m.table()[i]);
        QVERIFY2(l > prev,
                 qPrintable(QStringLiteral("%1: L*(%2) = %3 after %4").arg(name).arg(i).arg(l).arg(prev)));
        prev = l;
    }
    QVERIFY(Colormap::lightness(m.lookup(1.0)) - Colormap::lightness(m.lookup(0.0)) > 60);
}

void TestColormap::divergingIsCentredAndSymmetric() {
    const Colormap m = Colormap::byName(QStringLiteral("diverging"));
    QVERIFY(m.isDiverging());
    const QRgb mid = m.lookup(0.5);
    QVERIFY(qRed(mid) > 235 && qGreen(mid) > 235 && qBlue(mid) > 235); // near white
    QVERIFY(qBlue(m.lookup(0.0)) > qRed(m.lookup(0.0)));               // blue end
    QVERIFY(qRed(m.lookup(1.0)) > qBlue(m.lookup(1.0)));               // red end
    // Lightness rises to the centre and falls after it, symmetrically within a few L* units.
    for (double t = 0.05; t < 0.5; t += 0.05) {
        const double a = Colormap::lightness(m.lookup(0.5 - t)), b = Colormap::lightness(m.lookup(0.5 + t));
        QVERIFY2(std::fabs(a - b) < 8, qPrintable(QStringLiteral("t=%1 %2 vs %3").arg(t).arg(a).arg(b)));
        QVERIFY(Colormap::lightness(m.lookup(0.5 - t)) < Colormap::lightness(m.lookup(0.5 - t + 0.05)) + 0.5);
    }
    QCOMPARE(Colormap::byName(QStringLiteral("RdBu")).name(), QStringLiteral("diverging"));
}

void TestColormap::qualitativeIsOkabeIto() {
    const Colormap m = Colormap::byName(QStringLiteral("okabe-ito"));
    QCOMPARE(m.kind(), Colormap::Kind::Qualitative);
    QCOMPARE(m.lookup(0.0), qRgb(0, 0, 0));
    QCOMPARE(m.lookup(1.0 / 8 + 0.01), qRgb(0xE6, 0x9F, 0x00));
    QCOMPARE(m.lookup(1.0), qRgb(0xCC, 0x79, 0xA7));
}

void TestColormap::nanAndClamping() {
    const Colormap m;
    QCOMPARE(m.lookup(std::nan("")), m.nanColor());
    QCOMPARE(m.lookup(-3.0), m.lookup(0.0));
    QCOMPARE(m.lookup(7.0), m.lookup(1.0));
    QCOMPARE(Colormap::indexOf(std::nan("")), -1);
    QCOMPARE(Colormap::indexOf(1.0), 255);
    for (const QString& n : Colormap::names()) {
        const Colormap c = Colormap::byName(n);
        for (QRgb rgb : c.table())
            QVERIFY(channelDistance(rgb, c.nanColor()) > 20); // NaN stands out from every entry
    }
}

void TestColormap::names() {
    bool ok = true;
    QCOMPARE(Colormap::byName(QStringLiteral("no-such-map"), &ok).name(), QStringLiteral("viridis"));
    QVERIFY(!ok);
    QCOMPARE(Colormap::byName(QStringLiteral(" Magma "), &ok).name(), QStringLiteral("magma"));
    QVERIFY(ok);
    QCOMPARE(Colormap::names().size(), 5);
}

void TestColormap::niceTicks() {
    QCOMPARE(NiceScale::ticks(0, 1, 6), (QVector<double>{0, 0.2, 0.4, 0.6, 0.8, 1.0}));
    const QVector<double> t = NiceScale::ticks(-3.1, 3.1, 7);
    QVERIFY(t.contains(0.0));
    QCOMPARE(t.front(), -2.0);
    QCOMPARE(t.back(), 2.0);
    QCOMPARE(NiceScale::logTicks(1e-3, 10), (QVector<double>{1e-3, 1e-2, 1e-1, 1, 10}));
    QVERIFY(NiceScale::logTicks(2, 8).size() >= 2);
}

void TestColormap::tickFormats() {
    QCOMPARE(NiceScale::formatTick(0.25, 0.25), QStringLiteral("0.25"));
    QCOMPARE(NiceScale::formatTick(1500, 500), QStringLiteral("1500"));
    QCOMPARE(NiceScale::formatTick(2.5, 2.5), QStringLiteral("2.5"));
    QCOMPARE(NiceScale::formatTick(-1e-17, 0.2), QStringLiteral("0.0"));
    QCOMPARE(NiceScale::formatValue(std::nan("")), QStringLiteral("NaN"));
}

void TestColormap::roundTrip() {
    for (double v : {0.1, 1.0 / 3.0, -2.5e-300, 123456789.125, 0.0})
        QCOMPARE(NiceScale::roundTrip(v).toDouble(), v);
    QCOMPARE(NiceScale::roundTrip(0.1), QStringLiteral("0.1"));
}

void TestColormap::decimateKeepsExtremes() {
    QList<QPointF> pts;
    for (int i = 0; i < 100000; ++i)
        pts << QPointF(i, std::sin(i * 0.001));
    pts[54321].setY(50); // a spike must survive
    pts[77777].setY(-40);
    const QList<QPointF> d = SeriesDecimator::minMax(pts, 800);
    QVERIFY(d.size() <= 2 * 800 + 2);
    QVERIFY(d.size() > 800);
    QCOMPARE(d.front(), pts.front());
    QCOMPARE(d.back(), pts.back());
    QVERIFY(d.contains(QPointF(54321, 50)));
    QVERIFY(d.contains(QPointF(77777, -40)));
    QVERIFY(SeriesDecimator::isSortedByX(d));
}

void TestColormap::decimateUnsortedAndSmall() {
    QList<QPointF> small{{0, 1}, {1, 2}};
    QCOMPARE(SeriesDecimator::minMax(small, 100), small);
    QList<QPointF> circle;
    for (int i = 0; i < 20000; ++i)
        circle << QPointF(std::cos(i * 0.001), std::sin(i * 0.001));
    const QList<QPointF> d = SeriesDecimator::minMax(circle, 200);
    QVERIFY(d.size() <= 402);
    QVERIFY(d.size() > 100);
    // Finite filter drops NaN and non-positive values on log axes.
    const QList<QPointF> f =
        SeriesDecimator::finitePoints({1, 2, 3, 4}, {1, std::nan(""), -1, 4}, false, true);
    QCOMPARE(f, (QList<QPointF>{{1, 1}, {4, 4}}));
}

void TestColormap::gridThinScatter() {
    QList<QPointF> pts;
    for (int i = 0; i < 200000; ++i)
        pts << QPointF((i % 1000) / 1000.0, (i / 1000) / 200.0);
    const QList<QPointF> d = SeriesDecimator::gridThin(pts, QRectF(0, 0, 1, 1), 100, 50);
    QVERIFY(d.size() <= 100 * 50);
    QVERIFY(d.size() > 1000);
}

void TestColormap::steps() {
    const QList<QPointF> s = SeriesDecimator::toSteps({{0, 1}, {1, 2}, {3, 0}});
    QCOMPARE(s, (QList<QPointF>{{0, 1}, {1, 1}, {1, 2}, {3, 2}, {3, 0}}));
}

QTEST_APPLESS_MAIN(TestColormap)
#include "tst_colormap.moc"
