// Engine core: the shared result builders (Eigen -> result matrices and vectors, labels, series,
// graphs, claims) and number formatting. Values must be copied exactly, row by row.
#include "core/Numeric.h"
#include "core/ResultBuilders.h"

#include <QtTest>
#include <cmath>

class TstResultBuilders : public QObject {
    Q_OBJECT
private slots:
    void matrixIsRowMajorWithLabels();
    void matrixFromPrefixes();
    void matrixOfRowsAndFilled();
    void labelsIfSized();
    void toStdCopiesVectorsAndBlocks();
    void seriesAndPoints();
    void graphAndClaim();
    void formatting();
};

void TstResultBuilders::matrixIsRowMajorWithLabels() {
    Eigen::MatrixXd m(2, 3);
    m << 1, 2, 3, 4, 5, 6.5;
    const pl::Matrix r = pl::matrixOf(m, {"a", "b"}, {"x", "y", "z"});
    QCOMPARE(r.rows, int64_t(2));
    QCOMPARE(r.cols, int64_t(3));
    QCOMPARE(r.data, (std::vector<double>{1, 2, 3, 4, 5, 6.5}));
    QCOMPARE(r.at(1, 2), 6.5);
    QCOMPARE(r.rowLabels, (std::vector<std::string>{"a", "b"}));
    QCOMPARE(r.colLabels, (std::vector<std::string>{"x", "y", "z"}));
    const pl::Matrix bare = pl::matrixOf(m.transpose());
    QCOMPARE(bare.rows, int64_t(3));
    QCOMPARE(bare.data, (std::vector<double>{1, 4, 2, 5, 3, 6.5}));
    QVERIFY(bare.rowLabels.empty() && bare.colLabels.empty());
}

void TstResultBuilders::matrixFromPrefixes() {
    const Eigen::MatrixXd m = Eigen::MatrixXd::Zero(2, 2);
    const pl::Matrix one = pl::matrixOf(m, "ch", "ch", 1);
    QCOMPARE(one.rowLabels, (std::vector<std::string>{"ch1", "ch2"}));
    const pl::Matrix zero = pl::matrixOf(m, "g", "b", 0);
    QCOMPARE(zero.rowLabels, (std::vector<std::string>{"g0", "g1"}));
    QCOMPARE(zero.colLabels, (std::vector<std::string>{"b0", "b1"}));
    QCOMPARE(pl::numberedLabels("state ", 3), (std::vector<std::string>{"state 1", "state 2", "state 3"}));
    QVERIFY(pl::numberedLabels("x", 0).empty());
}

void TstResultBuilders::matrixOfRowsAndFilled() {
    const std::vector<Eigen::VectorXd> rows = {Eigen::Vector2d(1, 2), Eigen::Vector2d(3, 4),
                                               Eigen::Vector2d(5, 6)};
    const pl::Matrix r = pl::matrixOfRows(rows);
    QCOMPARE(r.rows, int64_t(3));
    QCOMPARE(r.cols, int64_t(2));
    QCOMPARE(r.data, (std::vector<double>{1, 2, 3, 4, 5, 6}));
    QCOMPARE(pl::matrixOfRows({}).rows, int64_t(0));
    const pl::Matrix f = pl::filledMatrix(2, 3, pl::kNaN, {"r1", "r2"});
    QCOMPARE(f.data.size(), size_t(6));
    for (double v : f.data)
        QVERIFY(std::isnan(v));
    QCOMPARE(f.rowLabels.size(), size_t(2));
    QVERIFY(f.colLabels.empty());
}

void TstResultBuilders::labelsIfSized() {
    const std::vector<std::string> l = {"a", "b"};
    QCOMPARE(pl::labelsIfSized(l, 2), l);
    QVERIFY(pl::labelsIfSized(l, 3).empty());
}

void TstResultBuilders::toStdCopiesVectorsAndBlocks() {
    Eigen::VectorXd v(3);
    v << 0.1, -2, 1e300;
    QCOMPARE(pl::toStd(v), (std::vector<double>{0.1, -2, 1e300}));
    QCOMPARE(pl::toStd(v.head(2)), (std::vector<double>{0.1, -2}));
    Eigen::MatrixXd m(2, 2);
    m << 1, 2, 3, 4;
    QCOMPARE(pl::toStd(m.col(1)), (std::vector<double>{2, 4}));
}

void TstResultBuilders::seriesAndPoints() {
    pl::Series s = pl::seriesOf({1, 2}, {3, 4}, "x axis", "y axis");
    QCOMPARE(s.xlabel, std::string("x axis"));
    QCOMPARE(s.ylabel, std::string("y axis"));
    pl::addPoint(s, 5, 6);
    QCOMPARE(s.x, (std::vector<double>{1, 2, 5}));
    QCOMPARE(s.y, (std::vector<double>{3, 4, 6}));
    const pl::Series e = pl::emptySeries("t", "v");
    QVERIFY(e.x.empty() && e.y.empty());
    QCOMPARE(e.ylabel, std::string("v"));
}

void TstResultBuilders::graphAndClaim() {
    const pl::GraphNode n = pl::graphNode(7, "K7", {{"row", 2}, {"col", 3}});
    QCOMPARE(n.id, int64_t(7));
    QCOMPARE(n.label, std::string("K7"));
    QCOMPARE(n.attrs.at("col"), 3.0);
    const pl::GraphEdge e = pl::graphEdge(1, 2, 0.5, {{"p_value", 0.01}});
    QCOMPARE(e.source, int64_t(1));
    QCOMPARE(e.target, int64_t(2));
    QCOMPARE(e.weight, 0.5);
    QCOMPARE(e.attrs.at("p_value"), 0.01);
    const pl::Claim c = pl::claimOf("id-1", "statement", false, 0.25, 0.5, "detail");
    QCOMPARE(c.id, std::string("id-1"));
    QVERIFY(!c.holds);
    QCOMPARE(c.observed, 0.25);
    QCOMPARE(c.threshold, 0.5);
    QCOMPARE(c.detail, std::string("detail"));
}

void TstResultBuilders::formatting() {
    QCOMPARE(pl::formatNumber("%.2g", 0.012345), std::string("0.012"));
    QCOMPARE(pl::formatSignificant(1234.5678, 3), std::string("1.23e+03"));
    QCOMPARE(pl::formatFixed(2.0 / 3.0, 2), std::string("0.67"));
    QCOMPARE(pl::formatStreamed(2.0 / 3.0, 3), std::string("0.667"));
    QCOMPARE(pl::formatStreamed(1e-7, 3), std::string("1e-07"));
    QVERIFY(std::isnan(pl::kNaN));
    QCOMPARE(pl::kTau, 2.0 * std::numbers::pi);
}

QTEST_APPLESS_MAIN(TstResultBuilders)
#include "tst_result_builders.moc"
