#pragma once
/// The interface every paper engine implements. An Engine object is stateless and immutable
/// after construction, so one instance may serve several threads at once: all state of a run
/// lives in its arguments. No Qt, no VTK.

#include "ParamSpec.h"
#include "ResultDocument.h"
#include "RunContext.h"

#include <memory>
#include <string>
#include <vector>

namespace pl {

/// A user file parsed and validated by an engine (the "staging object" of design rule 6).
/// Engines derive their own input types from it. Immutable once loaded; shared between threads.
struct LoadedInput {
    virtual ~LoadedInput() = default;
    std::string path;    ///< as given by the user
    std::string kind;    ///< e.g. "nfg", "csv", "npy"
    std::string summary; ///< one line for the GUI ("4x4 zero-sum game 'O'Neill'")
};

using InputList = std::vector<std::shared_ptr<const LoadedInput>>;

class Engine {
public:
    virtual ~Engine() = default;
    /// The panel id this engine serves (e.g. "ssn-nash").
    virtual std::string id() const = 0;
    /// The parameter list (keys, types, ranges, defaults, units, help).
    virtual std::vector<ParamSpec> params() const = 0;
    /// File extensions this engine accepts (lower case, without dot), for dialogs and drops.
    virtual std::vector<std::string> inputExtensions() const { return {}; }
    /// How many input files the engine accepts at most (0 = none).
    virtual int maxInputs() const { return 0; }
    /// True when this build has CUDA kernels for this engine (the CLI refuses --backend cuda
    /// otherwise). Whether a device is present is decided at run time.
    virtual bool hasCudaPath() const { return false; }
    /// Parses and validates one file. Throws pl::InputError (file, line/offset, reason) and
    /// changes nothing on failure. May be called on a worker thread.
    virtual std::shared_ptr<const LoadedInput> load(const std::string& path) const;
    /// Runs the computation. Deterministic in (inputs, params, ctx.seed()). Checks
    /// ctx.throwIfCancelled() at least every ~50 ms and reports progress. Fills metrics, series,
    /// matrices, vectors, labels, graphs and claims; the caller fills panel, seed, params,
    /// inputs and elapsed time. Throws Cancelled, EngineError, UsageError (bad combination
    /// of parameters) or InputError (input does not suit the parameters).
    virtual ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const = 0;
};

/// Runs an engine and fills the bookkeeping fields (panel, seed, params, inputs, elapsed_ms).
ResultDocument runEngine(const Engine& engine, const InputList& inputs, const ParamSet& params, RunContext& ctx);

} // namespace pl
