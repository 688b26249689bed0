// The Tensix Matrix Unit and Scalar Unit GPR ops behind the engine interface: words (dis, asm, isa),
// programs with their JSON state, the vector families of tmu/tensix/vectors.h and their replay.
#include <algorithm>
#include <istream>
#include <map>
#include <optional>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "tmu/tensix/decode.h"
#include "tmu/engine.h"
#include "tmu/error.h"
#include "tmu/tensix/formats.h"
#include "tmu/tensix/program.h"
#include "tmu/tensix/scoreboard.h"
#include "tmu/program_error.h"
#include "tmu/tensix/state_json.h"
#include "tmu/vector_file.h"
#include "tmu/tensix/vectors.h"
#include "tensix_options.h"

namespace tmu::tensix {

namespace {

namespace tv = tmu::tensix::vectors;

// The checked-in corpus (vectors/corpus/README.md): tv::plan_corpus_files() for both architectures,
// one level-1 vector and one random vector per file, from a fixed seed.
constexpr unsigned kCorpusLevel1Limit = 1;
constexpr unsigned kCorpusRandomVectors = 1;
constexpr uint64_t kCorpusSeed = 20240601;

Error bad(std::string text) { return Error(ErrorKind::BadInput, std::move(text)); }

Arch arch_of(const std::string& variant) {
  const auto a = parse_arch(variant);
  if (!a) throw bad(fmt::format("unknown architecture '{}' (blackhole or wormhole)", variant));
  return *a;
}

uint64_t hex_word(std::string_view text) {
  std::string_view t = text;
  if (t.starts_with("0x") || t.starts_with("0X")) t.remove_prefix(2);
  uint64_t v = 0;
  std::istringstream in{std::string(t)};
  if (t.empty() || t.size() > 8 || t.find_first_not_of("0123456789abcdefABCDEF") != std::string_view::npos || !(in >> std::hex >> v))
    throw bad(fmt::format("'{}' is not a 32-bit hex word", text));
  return v;
}

// --values: how a kernel author reads the Dst rows' bits. The 16-bit rows (Dst16b) hold bf16, fp16 or
// int8; the 32-bit view (Dst32b) holds every float format as FP32 and the integers as INT32.
struct DstReading {
  std::optional<SrcStyle> dst16;  // nullopt: the format has no 16-bit Dst form
  bool dst32_int = false;
};

DstReading dst_reading(const std::string& format) {
  if (format == "bf16") return {SrcStyle::BF16, false};
  if (format == "fp16") return {SrcStyle::FP16, false};
  if (format == "int8") return {SrcStyle::INT8, true};
  return {std::nullopt, format == "int32"};  // tf32, fp32, int32
}

// nlohmann::json keeps object keys sorted as strings, which lists Dst rows as 0, 1, 10, 100, ...; the
// printed document keeps every other key's order and lists the rows of "dst" and "dst32" numerically.
// With a reading, each row also gets "values": its data decoded in that format, exactly.
nlohmann::ordered_json printed_state(const nlohmann::json& state, const TensixState& s, const std::string& values) {
  nlohmann::ordered_json out(state);  // the sorted keys, in the order they come
  const DstReading reading = dst_reading(values);
  for (const char* part : {"dst", "dst32"}) {
    if (!out.contains(part)) continue;
    const bool wide = std::string_view(part) == "dst32";
    std::vector<std::pair<unsigned, nlohmann::ordered_json>> rows;
    for (auto& [key, row] : out[part].items()) rows.emplace_back(static_cast<unsigned>(std::stoul(key)), row);
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    nlohmann::ordered_json sorted = nlohmann::ordered_json::object();
    for (auto& [r, row] : rows) {
      if (!values.empty()) {
        nlohmann::ordered_json decoded = nlohmann::ordered_json::array();
        for (unsigned c = 0; c < kDstCols; ++c) {
          // The bits as printed (whatever the row's validity); Dst32b[r] = DstBits[hi] << 16 | DstBits[lo].
          const uint32_t bits32 = (uint32_t{s.Dst.DstBits[DstRegs::hi_row(r)][c]} << 16) | s.Dst.DstBits[DstRegs::lo_row(r)][c];
          const double v = wide ? dst32_value(bits32, reading.dst32_int) : dst16_value(s.Dst.DstBits[r][c], *reading.dst16);
          // Integers in full ("-100000", not "-1e+05"); floats as the shortest text that reads back exactly.
          const bool integer = wide ? reading.dst32_int : reading.dst16 == SrcStyle::INT8;
          decoded.push_back(integer ? fmt::format("{}", static_cast<int64_t>(v)) : format_exact_value(v));
        }
        row["values"] = std::move(decoded);
      }
      sorted[std::to_string(r)] = std::move(row);
    }
    out[part] = std::move(sorted);
  }
  return out;
}

template <class T>
std::vector<T> numbers(const OptionValues& o, const char* name, const std::function<T(const std::string&)>& parse) {
  std::vector<T> out;
  if (const auto* v = option_value(o, name))
    for (const std::string& s : *v) out.push_back(parse(s));
  return out;
}

class TensixWords final : public WordCodec {
 public:
  std::vector<EngineOption> word_options() const override {
    return {{"--rotated", "Words are rotated left by 2, as embedded in kernel binaries (dis); print that form (asm)",
             EngineOption::Kind::Flag, ""}};
  }
  std::string disassemble(std::string_view text, const std::string& variant, const OptionValues& o) const override {
    const auto word = static_cast<uint32_t>(hex_word(text));
    const uint32_t raw = to_raw(word, option_value(o, "rotated") ? WordForm::Rotated : WordForm::Raw);
    return fmt::format("{:08x}  {}", raw, tmu::tensix::disassemble(decode(raw, arch_of(variant))));
  }
  std::string assemble(std::string_view line, const std::string& variant, const OptionValues& o) const override {
    const uint32_t raw = encode(tmu::tensix::assemble(std::string(line), arch_of(variant)));
    return fmt::format("0x{:08x}", option_value(o, "rotated") ? from_raw(raw, WordForm::Rotated) : raw);
  }
  std::vector<std::string> instruction_table(const std::string& variant) const override {
    std::vector<std::string> out;
    for (const InsnSpec& spec : instructions(arch_of(variant))) {
      std::string fields;
      for (const FieldSpec& f : spec.fields()) fields += fmt::format(" {}[{}:{}]", field_name(f.id), f.lo + f.width - 1, f.lo);
      out.push_back(fmt::format("{:<13} 0x{:02x} {:<10}{}  # {}", spec.mnemonic, spec.opcode,
                                unit_name(spec.unit), fields, spec.summary));
    }
    return out;
  }
};

class TensixPrograms final : public ProgramRunner {
 public:
  std::string state_parts() const override { return "rwcs gprs config threadconfig banks srca srcb dst dst32 l1:ADDR:BYTES"; }
  std::string value_readings() const override {
    return "Dst as bf16, fp16 or int8 (16-bit rows; in dst32 as FP32 / INT32), tf32, fp32 or int32 (dst32 only)";
  }
  nlohmann::ordered_json run_program(std::istream& in, const std::string& path, const RunRequest& r) const override {
    for (const std::string& p : r.parts)
      if (!is_state_part(p))
        throw bad(fmt::format("--show: unknown part '{}' (rwcs gprs config threadconfig banks srca srcb dst dst32 l1:ADDR:BYTES)", p));
    static const std::vector<std::string> kReadings{"bf16", "fp16", "int8", "tf32", "fp32", "int32"};
    if (!r.values.empty() && std::find(kReadings.begin(), kReadings.end(), r.values) == kReadings.end())
      throw bad(fmt::format("--values {}: Tensix Dst reads as bf16 fp16 int8 tf32 fp32 int32", r.values));
    const bool shows_dst16 = r.parts.empty() || std::find(r.parts.begin(), r.parts.end(), "dst") != r.parts.end();
    if (!r.values.empty() && shows_dst16 && !dst_reading(r.values).dst16)
      throw bad(fmt::format("--values {}: Dst16b rows hold bf16, fp16 or int8; read {} data in the 32-bit view "
                            "(--show dst32)", r.values, r.values));
    ProgramOptions opts;
    opts.arch = arch_of(r.variant);
    opts.trace = r.trace;
    const ProgramRun run = tmu::tensix::run_program(in, path, opts);
    nlohmann::json j = state_to_json(run.state, r.parts);
    j["instructions"] = run.instructions;
    j["matrix_unit_cycles"] = run.matrix_unit_cycles;
    j["scalar_unit_cycles"] = run.scalar_unit_cycles;
    return printed_state(j, run.state, r.values);
  }
};

class TensixVectors final : public VectorFiles {
 public:
  std::vector<EngineOption> vector_options() const override {
    using K = EngineOption::Kind;
    return {
        {"--family,--ops", "Families, comma-separated: mvmul elwmul elwadd elwsub gmpool mov zeroacc src rwc shift legacy gpr l1 unpacr pacr "
                           "(--ops: alias)", K::List, ""},
        {"--format,--formats", "Data formats, comma-separated: bf16 fp16 tf32 int8 (--formats: alias)", K::List, ""},
        {"--fidelity", std::string("Only files of the phases these fidelity levels run, comma-separated: ") + kFidelitySpellings,
         K::List, ""},
        {"--phase", std::string("Only files of these fidelity phases, comma-separated: ") + kPhaseSpellings, K::List, ""},
        {"--dst", "Dst modes, comma-separated: 16 32", K::List, ""},
        {"--level1-limit", "At most this many level-1 vectors per file, evenly spread (0: all)", K::Value, ""},
        {"--corpus", "The settings of the checked-in corpus (vectors/corpus/README.md)", K::Flag, ""},
    };
  }

  GeneratedSet generate_vectors(const VectorRequest& r, const FileSink& sink) const override {
    tv::GenerateOptions gen;
    GeneratedSet set;
    std::vector<std::pair<Arch, std::vector<tv::FileSpec>>> sets;
    const bool corpus = option_value(r.options, "corpus") != nullptr;
    const auto* limit = option_value(r.options, "level1-limit");
    const unsigned level1_limit = limit ? parse_count(limit->front(), "--level1-limit") : 0;
    const Arch arch = r.variant.empty() ? Arch::Blackhole : arch_of(r.variant);
    if (corpus) {
      if (r.options.size() > 1 || r.level_given || r.random_given || r.seed_given)
        throw bad("--corpus fixes the selection, level, -n, --seed, and --level1-limit; give only -o");
      gen.level = 2;
      gen.random_vectors = kCorpusRandomVectors;
      gen.seed = kCorpusSeed;
      gen.level1_limit = kCorpusLevel1Limit;
      for (Arch a : {Arch::Blackhole, Arch::Wormhole}) sets.emplace_back(a, tv::plan_corpus_files(a));
      set.manifest_header.push_back("regenerate: tmu vectors --corpus -o DIR  (both architectures)");
    } else {
      gen.level = r.level;
      gen.random_vectors = r.random;
      gen.level1_limit = level1_limit;
      gen.seed = r.seed;
      tv::FileFilter filter;
      if (const auto* v = option_value(r.options, "family")) filter.families = *v;
      if (const auto* v = option_value(r.options, "format")) filter.formats = *v;
      // A level selects every phase it runs; --phase selects single phases.
      for (unsigned level : numbers<unsigned>(r.options, "fidelity", parse_fidelity_level))
        for (unsigned p = 0; p < level; ++p) add_once(filter.phases, static_cast<int>(p));
      for (unsigned p : numbers<unsigned>(r.options, "phase", parse_phase)) add_once(filter.phases, static_cast<int>(p));
      std::sort(filter.phases.begin(), filter.phases.end());
      filter.dst_bits = numbers<int>(r.options, "dst", [](const std::string& s) { return static_cast<int>(parse_count(s, "--dst")); });
      sets.emplace_back(arch, tv::plan_files(filter));
      // The whole command, filters included, so the set can be regenerated from its manifest.
      std::string filters;
      for (const char* key : {"family", "format", "fidelity", "phase", "dst"})
        if (const auto* v = option_value(r.options, key)) filters += fmt::format(" --{} {}", key, fmt::join(*v, ","));
      set.manifest_header.push_back(fmt::format(
          "generated by: tmu{} vectors --level {}{}{}{}", arch == Arch::Blackhole ? "" : " --arch wormhole", gen.level,
          gen.level >= 2 ? fmt::format(" -n {} --seed {}", gen.random_vectors, gen.seed) : "",
          gen.level1_limit ? fmt::format(" --level1-limit {}", gen.level1_limit) : "", filters));
      set.manifest_header.push_back(fmt::format("architecture: {}", arch_name(arch)));
    }
    set.random = gen.level >= 2 && gen.random_vectors > 0;
    set.seed = gen.seed;
    for (const auto& [a, files] : sets) {
      gen.arch = a;
      const std::string prefix = corpus ? std::string(arch_name(a)) + "/" : std::string();
      for (const tv::FileSpec& spec : files) {
        GeneratedFile out;
        out.path = prefix + spec.relative_path();
        if (!r.list_only) {
          const tv::VectorFile file = tv::generate_file(spec, gen);
          out.text = tv::format_vector_file(file);
          out.vectors = file.vectors.size();
          for (const tv::Vector& v : file.vectors) out.element_cases += tv::element_cases(v);
        }
        sink(std::move(out));
      }
    }
    return set;
  }

  ReplayResult replay_vectors(std::istream& in, const std::string& path, const ReplayRequest& r) const override {
    const tv::VectorFile file = tv::parse_vector_file(in, path);
    tv::ReplayOptions ro;
    ro.poison = r.poison_seed.has_value();
    ro.poison_seed = r.poison_seed.value_or(0);
    ro.max_differences_per_vector = r.max_differences;
    const tv::ReplayReport report = tv::replay_file(file, path, ro);
    ReplayResult out;
    out.vectors = report.vectors;
    out.failed = report.failed_vectors;
    out.counts = {{"element-cases", report.element_cases}, {"locations", report.locations}};
    for (const tv::Difference& d : report.differences)
      out.differences.push_back(fmt::format("{}:{}: vector {}: {}", path, d.line, d.vector, d.text));
    return out;
  }
};

class TensixScoreboards final : public ScoreboardFactory {
 public:
  std::unique_ptr<EngineScoreboard> scoreboard(const std::string& variant) const override {
    return make_engine_scoreboard(arch_of(variant));
  }
};

class TensixEngine final : public Engine {
 public:
  std::string name() const override { return "tensix"; }
  std::string summary() const override { return "Tenstorrent Tensix Matrix Unit (FPU) and Scalar Unit GPR ops"; }
  std::vector<EngineVariant> variants() const override {
    return {{"blackhole", "Blackhole (the default)"}, {"wormhole", "Wormhole: its field layout and Dst modes"}};
  }
  std::string variant_alias() const override { return "--arch"; }

  const WordCodec* words() const override { return &words_; }
  const ProgramRunner* programs() const override { return &programs_; }
  const VectorFiles* vectors() const override { return &vectors_; }
  const ScoreboardFactory* scoreboards() const override { return &scoreboards_; }

 private:
  TensixWords words_;
  TensixPrograms programs_;
  TensixVectors vectors_;
  TensixScoreboards scoreboards_;
};

}  // namespace
}  // namespace tmu::tensix

namespace tmu {
std::unique_ptr<Engine> make_tensix_engine() { return std::make_unique<tensix::TensixEngine>(); }
}  // namespace tmu
