#pragma once
/// Records the result keys that figure code looks up through the pl::fig helpers
/// (FigureHelpers.h), so that a test can fail when a figure reads a key the engine no longer
/// writes (a renamed or misspelt key otherwise gives an empty series and no error).
///
/// A recorder is active on the thread that created it, for its lifetime; recorders nest and
/// each lookup is recorded by the innermost one. With no recorder the helpers cost one
/// thread-local read per lookup.

#include <string>
#include <vector>

namespace pl::fig {

/// The part of a ResultDocument a key names.
enum class ResultSection { Metric, Series, Matrix, Vector, Labels, Graph, Param };

/// "metrics" | "series" | "matrices" | "vectors" | "labels" | "graphs" | "params", as in the
/// result JSON.
const char* toString(ResultSection section);

/// One lookup made by figure code.
struct KeyLookup {
    ResultSection section = ResultSection::Metric;
    std::string key;
    bool found = false;    ///< the key was present in the result
    bool optional = false; ///< the figure copes with its absence (a find*/has* probe)
};

class ResultKeyRecorder {
public:
    /// Starts recording on the calling thread (until destruction).
    ResultKeyRecorder();
    ~ResultKeyRecorder();
    ResultKeyRecorder(const ResultKeyRecorder&) = delete;
    ResultKeyRecorder& operator=(const ResultKeyRecorder&) = delete;

    /// Every lookup, in order (repeats included).
    const std::vector<KeyLookup>& lookups() const { return m_lookups; }
    /// Required lookups whose key was absent, as "section 'key'", without repeats, in order.
    std::vector<std::string> missing() const;
    /// Optional lookups whose key was absent, as "section 'key'", without repeats, in order.
    std::vector<std::string> missingOptional() const;
    /// Keys of every optional lookup (found or not), as "section 'key'", without repeats.
    std::vector<std::string> optionalKeys() const;
    /// Forgets what was recorded so far (the recorder stays active).
    void clear() { m_lookups.clear(); }

    /// Called by the pl::fig helpers; records into the innermost active recorder of this
    /// thread, or does nothing when there is none.
    static void note(ResultSection section, const std::string& key, bool found, bool optional);
    /// "section 'key'", the form used by missing().
    static std::string describe(ResultSection section, const std::string& key);

private:
    std::vector<KeyLookup> m_lookups;
    ResultKeyRecorder* m_outer = nullptr;
};

} // namespace pl::fig
