#include "NfgReader.h"

#include "core/CsvReader.h"
#include "core/Errors.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

namespace pl::games {

namespace {

enum class Tok { Word, Number, String, LBrace, RBrace, Comma, End };

struct Token {
    Tok kind = Tok::End;
    std::string text; ///< word or number text, or the decoded string
    int64_t line = 1;
    int64_t column = 1;
};

std::string describe(const Token& t) {
    switch (t.kind) {
    case Tok::Word:
        return "word '" + t.text + "'";
    case Tok::Number:
        return "number '" + t.text + "'";
    case Tok::String:
        return "string";
    case Tok::LBrace:
        return "'{'";
    case Tok::RBrace:
        return "'}'";
    case Tok::Comma:
        return "','";
    case Tok::End:
        return "end of file";
    }
    return "token";
}

/// Splits the text into tokens on demand, tracking 1-based lines and columns (in bytes).
class Lexer {
public:
    Lexer(const std::string& text, const std::string& name) : m_text(text), m_name(name) {}

    const Token& peek() {
        if (!m_peeked) {
            m_next = scan();
            m_peeked = true;
        }
        return m_next;
    }
    Token next() {
        peek();
        m_peeked = false;
        return m_next;
    }
    [[noreturn]] void fail(const Token& at, const std::string& reason) const {
        throw InputError(m_name, reason, at.line, at.column);
    }
    Token expect(Tok kind, const std::string& what) {
        Token t = next();
        if (t.kind != kind)
            fail(t, "expected " + what + ", found " + describe(t));
        return t;
    }

private:
    static bool isSpace(unsigned char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
    }
    static bool isNumberChar(unsigned char c) {
        return (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E' || c == '/';
    }
    static bool isAlpha(unsigned char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    void advance() {
        if (m_text[m_pos] == '\n') {
            ++m_line;
            m_col = 1;
        } else {
            ++m_col;
        }
        ++m_pos;
    }

    Token scan() {
        while (m_pos < m_text.size() && isSpace(static_cast<unsigned char>(m_text[m_pos])))
            advance();
        Token t;
        t.line = m_line;
        t.column = m_col;
        if (m_pos >= m_text.size())
            return t;
        const unsigned char c = static_cast<unsigned char>(m_text[m_pos]);
        if (c == '{' || c == '}' || c == ',') {
            t.kind = c == '{' ? Tok::LBrace : (c == '}' ? Tok::RBrace : Tok::Comma);
            advance();
            return t;
        }
        if (c == '"') {
            t.kind = Tok::String;
            advance();
            while (true) {
                if (m_pos >= m_text.size())
                    fail(t, "unterminated string (the quote opened here is never closed)");
                const char d = m_text[m_pos];
                if (d == '\\' && m_pos + 1 < m_text.size()) {
                    advance();
                    t.text += m_text[m_pos];
                    advance();
                    continue;
                }
                if (d == '"') {
                    advance();
                    break;
                }
                if (d == '\0')
                    fail(t, "string contains a NUL byte (binary data?)");
                t.text += d;
                advance();
            }
            return t;
        }
        if (isNumberChar(c) && c != 'e' && c != 'E' && c != '/') {
            t.kind = Tok::Number;
            while (m_pos < m_text.size() && isNumberChar(static_cast<unsigned char>(m_text[m_pos]))) {
                t.text += m_text[m_pos];
                advance();
            }
            return t;
        }
        if (isAlpha(c)) {
            t.kind = Tok::Word;
            while (m_pos < m_text.size() && (isAlpha(static_cast<unsigned char>(m_text[m_pos])) ||
                                             (m_text[m_pos] >= '0' && m_text[m_pos] <= '9'))) {
                t.text += m_text[m_pos];
                advance();
            }
            return t;
        }
        char buf[64];
        std::snprintf(buf, sizeof buf, "unexpected character (byte 0x%02x)", unsigned(c));
        fail(t, buf);
    }

    const std::string& m_text;
    const std::string& m_name;
    size_t m_pos = 0;
    int64_t m_line = 1;
    int64_t m_col = 1;
    bool m_peeked = false;
    Token m_next;
};

/// Parses a decimal (with optional exponent) or a rational p/q. Returns nullopt when malformed.
std::optional<double> parseDecimal(const std::string& s) {
    if (s.empty())
        return std::nullopt;
    // strtod also accepts hex, "inf" and "nan": restrict to [sign] digits [. digits] [e [sign] digits].
    size_t i = 0;
    if (s[i] == '+' || s[i] == '-')
        ++i;
    size_t digits = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9')
        ++i, ++digits;
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9')
            ++i, ++digits;
    }
    if (digits == 0)
        return std::nullopt;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-'))
            ++i;
        size_t expDigits = 0;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9')
            ++i, ++expDigits;
        if (expDigits == 0)
            return std::nullopt;
    }
    if (i != s.size())
        return std::nullopt;
    return std::strtod(s.c_str(), nullptr);
}

double parseNumber(Lexer& lex, const Token& t) {
    if (t.kind != Tok::Number)
        lex.fail(t, "expected a number, found " + describe(t));
    std::optional<double> v;
    const size_t slash = t.text.find('/');
    if (slash == std::string::npos) {
        v = parseDecimal(t.text);
    } else {
        auto p = parseDecimal(t.text.substr(0, slash));
        auto q = parseDecimal(t.text.substr(slash + 1));
        if (p && q) {
            if (*q == 0)
                lex.fail(t, "rational '" + t.text + "' has a zero denominator");
            v = *p / *q;
        }
    }
    if (!v)
        lex.fail(t, "'" + t.text + "' is not a number");
    if (!std::isfinite(*v))
        lex.fail(t, "'" + t.text + "' is out of the range of double precision");
    return *v;
}

int parseCount(Lexer& lex, const Token& t) {
    const double v = parseNumber(lex, t);
    if (v != std::floor(v) || v < 1)
        lex.fail(t, "strategy count '" + t.text + "' must be a positive integer");
    if (v > 1e9)
        lex.fail(t, "strategy count '" + t.text + "' is too large");
    return int(v);
}

std::string humanBytes(double b) {
    char buf[64];
    if (b >= 1024.0 * 1024 * 1024)
        std::snprintf(buf, sizeof buf, "%.3g GiB", b / (1024.0 * 1024 * 1024));
    else
        std::snprintf(buf, sizeof buf, "%.1f MiB", b / (1024.0 * 1024));
    return buf;
}

/// Header: NFG 1 R|D "title".
void parseHeader(Lexer& lex, NormalFormGame& g) {
    Token t = lex.next();
    if (t.kind != Tok::Word || t.text != "NFG")
        lex.fail(t, "not a Gambit strategic-form file: expected 'NFG', found " + describe(t));
    t = lex.next();
    if (t.kind != Tok::Number || t.text != "1")
        lex.fail(t, "unsupported .nfg version: expected '1', found " + describe(t));
    t = lex.next();
    if (t.kind != Tok::Word || (t.text != "R" && t.text != "D"))
        lex.fail(t, "expected the number type 'R' or 'D', found " + describe(t));
    g.title = lex.expect(Tok::String, "the game title (a quoted string)").text;
}

/// Players: { "name" ... }. Returns their number.
int parsePlayers(Lexer& lex, NormalFormGame& g, const NfgLimits& limits) {
    const Token playersOpen = lex.expect(Tok::LBrace, "'{' opening the list of players");
    while (lex.peek().kind == Tok::String) {
        if (int(g.playerNames.size()) >= limits.maxPlayers)
            lex.fail(lex.peek(),
                     "more than " + std::to_string(limits.maxPlayers) + " players are not supported");
        g.playerNames.push_back(lex.next().text);
    }
    lex.expect(Tok::RBrace, "a player name or '}' closing the list of players");
    if (g.playerNames.empty())
        lex.fail(playersOpen, "the game has no players");
    return int(g.playerNames.size());
}

/// Strategies: either { n1 n2 ... } or { { "s" ... } { ... } ... }. Returns the opening brace.
Token parseStrategies(Lexer& lex, NormalFormGame& g, int players) {
    const Token stratOpen = lex.expect(Tok::LBrace, "'{' opening the strategy counts or names");
    if (lex.peek().kind == Tok::LBrace) {
        while (lex.peek().kind == Tok::LBrace) {
            const Token open = lex.next();
            if (int(g.strategyNames.size()) >= players)
                lex.fail(open, "more strategy lists than the " + std::to_string(players) + " players");
            std::vector<std::string> names;
            while (lex.peek().kind == Tok::String) {
                if (names.size() >= 1'000'000'000)
                    lex.fail(lex.peek(), "too many strategies");
                names.push_back(lex.next().text);
            }
            lex.expect(Tok::RBrace, "a strategy name or '}'");
            if (names.empty())
                lex.fail(open, "player " + std::to_string(g.strategyNames.size() + 1) + " has no strategies");
            g.numStrategies.push_back(int(names.size()));
            g.strategyNames.push_back(std::move(names));
        }
    } else {
        while (lex.peek().kind == Tok::Number) {
            const Token c = lex.next();
            if (int(g.numStrategies.size()) >= players)
                lex.fail(c, "more strategy counts than the " + std::to_string(players) + " players");
            g.numStrategies.push_back(parseCount(lex, c));
        }
    }
    lex.expect(Tok::RBrace, "'}' closing the strategies");
    if (int(g.numStrategies.size()) != players)
        lex.fail(stratOpen, "found strategies for " + std::to_string(g.numStrategies.size()) +
                                " players, expected " + std::to_string(players));
    return stratOpen;
}

/// Size checks before allocating the payoff tables (and strategy labels). Returns the number of profiles.
int64_t checkSizes(Lexer& lex, NormalFormGame& g, int players, const Token& stratOpen,
                   const NfgLimits& limits) {
    double estimate = 8.0 * players;
    for (int k : g.numStrategies)
        estimate *= k;
    int64_t profiles = 1;
    for (int k : g.numStrategies) {
        if (profiles > limits.maxProfiles / k)
            lex.fail(stratOpen, "the game has more than " + std::to_string(limits.maxProfiles) +
                                    " strategy profiles (payoff tables would need about " +
                                    humanBytes(estimate) + "); refused");
        profiles *= k;
    }
    if (estimate > double(limits.maxPayoffBytes))
        lex.fail(stratOpen, "the payoff tables would need about " + humanBytes(estimate) +
                                ", more than the limit of " + humanBytes(double(limits.maxPayoffBytes)) +
                                "; refused");
    if (g.strategyNames.empty())
        for (int p = 0; p < players; ++p) {
            g.strategyNames.emplace_back();
            for (int s = 0; s < g.numStrategies[size_t(p)]; ++s)
                g.strategyNames.back().push_back(std::to_string(s + 1));
        }
    return profiles;
}

/// Outcome style: { { "name" payoffs } ... } then one outcome index per profile.
void parseOutcomes(Lexer& lex, NormalFormGame& g, int players, int64_t profiles, const NfgLimits& limits) {
    lex.next();
    std::vector<std::vector<double>> outcomes;
    while (lex.peek().kind == Tok::LBrace) {
        const Token open = lex.next();
        if (int64_t(outcomes.size()) >= limits.maxProfiles)
            lex.fail(open, "more outcomes than the limit of " + std::to_string(limits.maxProfiles));
        if (lex.peek().kind == Tok::String)
            lex.next(); // outcome name
        std::vector<double> u;
        while (lex.peek().kind == Tok::Number || lex.peek().kind == Tok::Comma) {
            const Token v = lex.next();
            if (v.kind == Tok::Comma)
                continue;
            if (int(u.size()) >= players)
                lex.fail(v, "outcome " + std::to_string(outcomes.size() + 1) + " has more than " +
                                std::to_string(players) + " payoffs");
            u.push_back(parseNumber(lex, v));
        }
        const Token close =
            lex.expect(Tok::RBrace, "a payoff or '}' closing outcome " + std::to_string(outcomes.size() + 1));
        if (int(u.size()) != players)
            lex.fail(close, "outcome " + std::to_string(outcomes.size() + 1) + " has " +
                                std::to_string(u.size()) + " payoffs, expected " + std::to_string(players));
        outcomes.push_back(std::move(u));
    }
    lex.expect(Tok::RBrace, "an outcome '{ \"name\" payoffs }' or '}' closing the outcome list");
    for (int64_t k = 0; k < profiles; ++k) {
        const Token v = lex.next();
        if (v.kind == Tok::End)
            lex.fail(v, "missing outcome indices: expected " + std::to_string(profiles) +
                            " (one per profile), found " + std::to_string(k));
        if (v.kind != Tok::Number)
            lex.fail(v, "expected an outcome index, found " + describe(v));
        const double idx = parseNumber(lex, v);
        if (idx != std::floor(idx) || idx < 0 || idx > double(outcomes.size()))
            lex.fail(v, "outcome index '" + v.text + "' is not in 0.." + std::to_string(outcomes.size()));
        if (idx > 0)
            for (int p = 0; p < players; ++p)
                g.payoffs[size_t(p)][size_t(k)] = outcomes[size_t(idx) - 1][size_t(p)];
    }
}

/// Payoff style: all players' payoffs for each profile.
void parsePayoffList(Lexer& lex, NormalFormGame& g, int players, int64_t profiles) {
    const int64_t expected = profiles * players;
    for (int64_t k = 0; k < profiles; ++k)
        for (int p = 0; p < players; ++p) {
            Token v = lex.next();
            if (v.kind == Tok::Comma)
                v = lex.next();
            if (v.kind == Tok::End)
                lex.fail(v, "missing payoffs: expected " + std::to_string(expected) + " numbers (" +
                                std::to_string(players) + " players x " + std::to_string(profiles) +
                                " profiles), found " + std::to_string(k * players + p));
            g.payoffs[size_t(p)][size_t(k)] = parseNumber(lex, v);
        }
}

} // namespace

NormalFormGame NfgReader::readFile(const std::string& path, const NfgLimits& limits) {
    return parse(readFileChecked(path, limits.maxBytes), path, limits);
}

NormalFormGame NfgReader::parse(const std::string& text, const std::string& name, const NfgLimits& limits) {
    if (text.empty())
        throw InputError(name, "file is empty, expected a Gambit strategic-form game ('NFG 1 R ...')", 1, 1);
    Lexer lex(text, name);
    NormalFormGame g;
    parseHeader(lex, g);
    const int players = parsePlayers(lex, g, limits);
    const Token stratOpen = parseStrategies(lex, g, players);
    const int64_t profiles = checkSizes(lex, g, players, stratOpen, limits);
    // Optional comment string.
    if (lex.peek().kind == Tok::String)
        lex.next();
    g.payoffs.assign(size_t(players), std::vector<double>(size_t(profiles), 0.0));
    if (lex.peek().kind == Tok::LBrace)
        parseOutcomes(lex, g, players, profiles, limits);
    else
        parsePayoffList(lex, g, players, profiles);
    const Token trailing = lex.next();
    if (trailing.kind != Tok::End)
        lex.fail(trailing, "unexpected " + describe(trailing) +
                               " after the last payoff (too many payoffs or indices?)");
    return g;
}

} // namespace pl::games
