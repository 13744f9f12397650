#pragma once
/// Engine of the lif-mmwave panel (spec §11, LIF-FreqMatch): the LIF update read as a first-order
/// low-pass filter whose cut-off is matched to the band where the classes differ. Estimates that
/// band from Welch spectra of the training rows (Fisher ratio per channel and frequency), sets
/// beta* by the frequency-matching rule, trains a LIF network with surrogate-gradient BPTT on the
/// paperlab_nn tape against a raw-window MLP, a 1-D CNN and a low-passed MLP, sweeps beta over a
/// grid, repeats SNN vs MLP with the band switched (generator), and counts energy from op counts.
/// Stateless; one instance may serve several threads.
///
/// Input: none (seeded synthetic micro-Doppler sequences, MmwaveGenerator.h) or one manifest
/// `*.seq.json` (SeqManifestReader.h); the last ceil(test_fraction N) rows are the test split.
///
/// Result keys: vectors.welch_freq (cycles/sample), fisher_ratio, discriminative_energy;
/// metrics.omega_d, beta_star, cutoff_omega, beta_used, acc_snn, acc_ann_mlp, acc_ann_cnn,
/// acc_ann_lowpass, energy_ratio, ...; series.lif_response, acc_vs_beta, train_loss_snn, membrane;
/// matrices.class_psd, spike_raster; claims c1-cutoff-round-trip, c2-best-beta-near-star,
/// c3-snn-beats-mlp-low-band, c4-energy-ratio.
#include "core/Engine.h"

#include "lifsnn/SeqData.h"

namespace pl::lifsnn {

class LifMmwaveEngine : public Engine {
public:
    std::string id() const override { return "lif-mmwave"; }
    std::vector<ParamSpec> params() const override;
    /// A manifest (.json), optionally with the .npy arrays it lists (so that a folder holding all
    /// three loads as one set); the arrays are always read through the manifest.
    std::vector<std::string> inputExtensions() const override { return {"json", "npy"}; }
    int maxInputs() const override { return 3; }
    std::shared_ptr<const LoadedInput> load(const std::string& path) const override;
    ResultDocument run(const InputList& inputs, const ParamSet& params, RunContext& ctx) const override;
};

/// A loaded manifest with its sequences.
struct SeqInput : LoadedInput {
    SeqData data;
    std::vector<std::string> arrays; ///< canonical paths of the .npy files it read
};

/// An .npy array given next to its manifest (validated as .npy; its data come through the manifest).
struct NpyPartInput : LoadedInput {
    std::string canonical; ///< canonical path
};

/// \a p made absolute and normalised (symlinks resolved where they exist); \a p on failure.
std::string canonicalPath(const std::string& p);

/// The beta grid of the sweep (spec: 0.5 - 0.99).
const std::vector<double>& betaGrid();

} // namespace pl::lifsnn
