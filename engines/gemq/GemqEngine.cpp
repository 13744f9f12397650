#include "GemqEngine.h"

#include "GemqKeys.h"
#include "core/Errors.h"
#include "gemq/GemqRun.h"
#include "gemq/ImportanceTable.h"
#include "tinylm/TinyLmInputs.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace pl::gemq {

namespace P = keys::param;

std::vector<int> parseBitOptions(const std::string& text) {
    std::set<int> out;
    std::string cur;
    auto flush = [&] {
        if (cur.empty())
            throw UsageError("bits: '" + text + "' must be a comma-separated list of integers in [1, 16]");
        size_t used = 0;
        int v = 0;
        try {
            v = std::stoi(cur, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != cur.size() || v < 1 || v > 16)
            throw UsageError("bits: '" + cur + "' is not an integer in [1, 16]");
        if (!out.insert(v).second)
            throw UsageError("bits: " + cur + " is listed twice");
        cur.clear();
    };
    for (char ch : text) {
        if (ch == ',')
            flush();
        else if (!std::isspace(static_cast<unsigned char>(ch)))
            cur += ch;
    }
    flush();
    return {out.begin(), out.end()};
}

std::vector<ParamSpec> GemqEngine::params() const {
    auto g = [](ParamSpec s, const char* grp) {
        s.group = grp;
        return s;
    };
    ParamSpec bits;
    bits.key = P::kBits;
    bits.label = "bit options";
    bits.type = ParamType::String;
    bits.defaultValue = std::string("2,3,4,8");
    bits.help = "bit-widths an expert may take, comma-separated (the importance table brings its own)";
    bits.group = "quantisation";
    return {
        bits,
        g(ParamSpec::real(P::kAvgBits, "average bits", 1, 16, 2.5,
                          "budget: sum b n <= avg_bits sum n over the expert weights", "bits"),
          "quantisation"),
        g(ParamSpec::integer(P::kGroup, "group size", 4, 128, 32,
                             "consecutive input rows sharing one scale and zero point, per output column"),
          "quantisation"),
        g(ParamSpec::choice(
              P::kImportance, "importance", {"fisher", "output", "weight_error"}, "fisher",
              "weight of the squared quantisation error: diagonal Fisher, routed-output proxy, or 1"),
          "quantisation"),
        g(ParamSpec::integer(P::kRouterSteps, "router steps", 0, 2000, 200,
                             "Adam steps of router fine-tuning per stage (KL to full precision)"),
          "router tuning"),
        g(ParamSpec::integer(P::kStages, "stages", 1, 6, 3,
                             "progressive stages from min(max bits, avg_bits + 1.5) down to avg_bits"),
          "router tuning"),
        g(ParamSpec::real(P::kHetero, "heterogeneity", 0, 2, 0.3,
                          "layer scales s_l = exp(-hetero l): how unequally the layers matter"),
          "stand-in MoE"),
        g(ParamSpec::integer(P::kLayers, "layers L", 2, 16, 4, "MoE blocks"), "stand-in MoE"),
        g(ParamSpec::integer(P::kExperts, "experts E", 4, 64, 8, "experts per block"), "stand-in MoE"),
        g(ParamSpec::integer(P::kTopK, "top-k", 1, 2, 2, "experts per token"), "stand-in MoE"),
        g(ParamSpec::integer(P::kDModel, "d_model", 16, 128, 32, "width; experts are d -> 2d -> d"),
          "stand-in MoE"),
        g(ParamSpec::integer(P::kCalibTokens, "calibration tokens", 256, 65536, 2048,
                             "tokens for Fisher traces and router tuning"),
          "stand-in MoE"),
        g(ParamSpec::integer(P::kTrainEpochs, "training epochs", 1, 40, 6, "Adam epochs over 8192 tokens"),
          "stand-in MoE"),
    };
}

std::shared_ptr<const LoadedInput> GemqEngine::load(const std::string& path) const {
    std::string lower = path;
    for (char& c : lower)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    if (lower.size() >= 4 && lower.compare(lower.size() - 4, 4, ".csv") == 0)
        return readImportanceCsv(path);
    auto in = tinylm::loadTinyLmInput(path);
    if (const auto* m = dynamic_cast<const tinylm::ModelInput*>(in.get()); m && m->model.arch != "moe_lm")
        throw InputError(path, "gemq-moe-quant needs a moe_lm (__metadata__ arch), not " + m->model.arch);
    return in;
}

ResultDocument GemqEngine::run(const InputList& inputs, const ParamSet& p, RunContext& ctx) const {
    const ImportanceInput* table = nullptr;
    for (const auto& in : inputs)
        if (const auto* t = dynamic_cast<const ImportanceInput*>(in.get())) {
            if (table)
                throw InputError(in->path, "only one importance table per run");
            table = t;
        }
    const tinylm::ModelInput* model = tinylm::findModel(inputs);
    const tinylm::PromptsInput* calib = tinylm::findPrompts(inputs);
    if (table && (model || calib))
        throw UsageError(
            "an importance table runs the allocator alone: give it without a model or calibration");
    if (calib && !model)
        throw UsageError("calibration token ids need a .safetensors moe_lm");
    const std::string importance = p.getString(P::kImportance);
    if (model && !calib && importance != "weight_error")
        throw UsageError("importance " + importance +
                         " needs calibration token ids (.txt) with the model; weight_error does not");
    ResultDocument doc;
    if (table)
        runAllocatorOnly(*table, p, ctx, doc);
    else
        runGemq(model ? &model->model.moe : nullptr, calib ? &calib->prompts : nullptr, p, ctx, doc);
    ctx.progress(1.0, "done");
    return doc;
}

} // namespace pl::gemq
