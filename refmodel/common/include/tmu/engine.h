// The engine interface. Every engine (a model of one matrix or tile unit) is a peer behind
// tmu::Engine: a name, its variants, and the capabilities it provides (instruction words, programs,
// vector files, a scoreboard), each a small interface of its own. Engines are found in the registry
// by name and asked for a capability, as LLVM finds a target and its assembler apart. The command
// line, the audit, the DPI-C library and the Python package ask the registry; none of them names an
// engine. A new engine is a directory under refmodel/engines/ defining make_<name>_engine() and one
// word in that folder's TMU_ENGINES list (docs/architecture.md, "Adding an engine").
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace tmu {

// An option an engine adds to one of the subcommands (vectors, audit, dis, asm). The front end
// creates it and hands the engine what was given; the engine checks the values and throws
// tmu::Error (BadInput) naming the option for a bad one.
struct EngineOption {
  std::string names;  // "--family,--ops": the first is the primary name, the rest aliases
  std::string help;
  enum class Kind { Flag, Value, List } kind = Kind::Value;  // List: comma-separated values
  std::string default_text;  // shown in --help; the engine applies its default itself
};
// Values given, by primary name without the dashes ("family"); a flag given maps to {"1"}. An option
// not given has no entry.
using OptionValues = std::map<std::string, std::vector<std::string>>;
const std::vector<std::string>* option_value(const OptionValues& v, const std::string& name);
// Appends `v` to the values chosen so far unless it is among them: a value given twice counts once,
// in the order first given.
template <typename T>
void add_once(std::vector<T>& out, const T& v) {
  if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
}

struct EngineVariant {
  std::string name;     // "blackhole", "M2", "a2a3"
  std::string summary;  // one line for --help and docs
};

// tmu run: a program file in the engine's program format, run from reset; the result is the final
// state as data (a JSON document whose keys keep the engine's order), which the front ends print.
struct RunRequest {
  std::string variant;
  std::vector<std::string> parts;  // --show: only these parts of the state
  std::string values;              // --values: a typed reading of the state, "" for none
  std::ostream* trace = nullptr;   // --trace: one line per retired operation
};

// tmu vectors: what to generate. The engine decides the files; a file's text is handed to the sink
// whole, with its path relative to the output directory.
struct VectorRequest {
  unsigned level = 1;           // 1: special values crossed; 2: plus `random` seeded random vectors a file
  unsigned random = 16;
  uint64_t seed = 0;            // level 2: the run's seed (printed by the front end)
  std::string variant;          // "" when not given: the engine chooses (some write every variant)
  bool level_given = false, random_given = false, seed_given = false;
  bool list_only = false;       // --list: hand the sink each file's path only, generate nothing
  OptionValues options;         // the engine's own vectors options
};
struct GeneratedFile {
  std::string path;             // relative, '/'-separated
  std::string text;
  uint64_t vectors = 0, element_cases = 0;
};
struct GeneratedSet {
  std::vector<std::string> manifest_header;  // the MANIFEST's comment lines (how to regenerate)
  bool random = false;          // whether the run drew random vectors (the front end prints the seed)
  uint64_t seed = 0;            // the seed they were drawn from
};
using FileSink = std::function<void(GeneratedFile&&)>;

// tmu check: one vector file replayed against the model.
struct ReplayRequest {
  unsigned max_differences = 16;         // shown per vector
  std::optional<uint64_t> poison_seed;   // start each vector from seeded random state, not reset
};
// What was compared, counted by unit ("element-cases", "Z rows", ...), in the order units first came.
using UnitCounts = std::vector<std::pair<std::string, uint64_t>>;
// Adds `n` to `unit`'s count (a new unit goes last): how totals over several files are kept.
void add_count(UnitCounts& counts, const std::string& unit, uint64_t n);

struct ReplayResult {
  uint64_t vectors = 0, failed = 0;
  UnitCounts counts;                     // in the engine's order
  std::vector<std::string> differences;  // "path:line: vector NAME: what differs", at most the limit each
};

// A DPI-C scoreboard for one engine: the model mirrors what the testbench drives into the design and
// compares what the design produced. Locations and operations are named in text the engine defines
// (docs/scoreboard.md); data travels as 32-bit words, lane 0 in the low bits of word 0. Every call
// throws tmu::Error (BadInput) for a location, shape or operation it cannot take.
class EngineScoreboard {
 public:
  virtual ~EngineScoreboard() = default;
  // Declares state the engine cannot know by itself (a tile's element type, shape, layout, valid region).
  virtual void declare(std::string_view text) = 0;
  // Stimulus: the design's state at `location` now holds `words`.
  virtual void load(std::string_view location, std::span<const uint32_t> words) = 0;
  // Executes one operation on the model, as the design is asked to.
  virtual void execute(std::string_view operation) = 0;
  // The design produced `words` at `location`: one line per mismatching lane naming the location,
  // the lane, the design's and the model's values, and the last operation; empty when all agree.
  virtual std::vector<std::string> compare(std::string_view location, std::span<const uint32_t> words) = 0;
  // The model's words at `location`.
  virtual std::vector<uint32_t> read(std::string_view location) const = 0;
  // What the mismatches compare() has reported so far have in common, as one line that points at a
  // cause ("all 12 are 1 ulp nearer zero than the model: ..."); "" when there is nothing to say.
  virtual std::string summary() const { return ""; }
  // A program in the engine's `tmu run` format that runs the last operation on the model alone from
  // the state that operation read (written where the bench asks, docs/scoreboard.md "Replay"), and
  // the command that runs it from `file`; "" for both when the engine has none or nothing ran yet.
  virtual std::string replay_program() const { return ""; }
  virtual std::string replay_command(std::string_view /*file*/) const { return ""; }
};

// Results an engine adds to `tmu audit` beside the shared tables: one CSV and one section of audit.md.
struct AuditRequest {
  uint64_t seed = 1;
  unsigned threads = 0;
  std::string variant;
  OptionValues options;  // the engine's own audit options
};
struct AuditTable {
  std::string csv_name;   // file name in the output directory, e.g. "toy.csv"
  std::string csv;        // header line and rows
  std::string markdown;   // a section for audit.md ("## ..." and the table)
  bool checks_passed = true;  // false: tmu audit exits 3, as for a failed phase check
};

// --- Capabilities: what an engine may provide, each a small interface of its own ---
// The front ends ask an engine for a capability (Engine::words(), programs(), ...) and name no
// engine; one it does not provide is null, and the front end says so. Its audit rows and Python
// binding are registered apart in the same way (tmu/audit/rows.h, the engine's python/ directory).

// Engines whose operations are encoded in words: tmu dis, asm, isa.
class WordCodec {
 public:
  virtual ~WordCodec() = default;
  virtual std::vector<EngineOption> word_options() const { return {}; }
  virtual std::string disassemble(std::string_view word, const std::string& variant, const OptionValues& o) const = 0;
  virtual std::string assemble(std::string_view line, const std::string& variant, const OptionValues& o) const = 0;
  // tmu isa: one line per instruction; empty for an engine without a table.
  virtual std::vector<std::string> instruction_table(const std::string& /*variant*/) const { return {}; }
};

// tmu run.
class ProgramRunner {
 public:
  virtual ~ProgramRunner() = default;
  // For --help: the parts `tmu run --show` takes, and the readings `--values` takes ("" for none).
  virtual std::string state_parts() const = 0;
  virtual std::string value_readings() const { return ""; }
  // Throws tmu::ProgramError (file:line: reason) or tmu::Error.
  virtual nlohmann::ordered_json run_program(std::istream& in, const std::string& path, const RunRequest& r) const = 0;
};

// tmu vectors and tmu check.
class VectorFiles {
 public:
  virtual ~VectorFiles() = default;
  virtual std::vector<EngineOption> vector_options() const { return {}; }
  // Calls `sink` once per file, in order. Throws tmu::Error (BadInput) for a request it cannot take.
  virtual GeneratedSet generate_vectors(const VectorRequest& r, const FileSink& sink) const = 0;
  // Replays one file of this engine (its framing already identified it). Throws tmu::ProgramError for
  // a malformed file.
  virtual ReplayResult replay_vectors(std::istream& in, const std::string& path, const ReplayRequest& r) const = 0;
};

// The DPI-C library's and Python's generic scoreboard.
class ScoreboardFactory {
 public:
  virtual ~ScoreboardFactory() = default;
  // A new scoreboard for the variant (its canonical name).
  virtual std::unique_ptr<EngineScoreboard> scoreboard(const std::string& variant) const = 0;
};

// Tables an engine without audit rows (a plugin) adds to `tmu audit` beside the shared ones.
class AuditTables {
 public:
  virtual ~AuditTables() = default;
  virtual std::vector<EngineOption> audit_options() const { return {}; }
  virtual AuditTable audit(const AuditRequest& r) const = 0;
};

// An engine: its name and variants, and the capabilities it provides (null: not provided).
class Engine {
 public:
  virtual ~Engine() = default;

  virtual std::string name() const = 0;     // --engine NAME, vector files' "engine NAME"
  virtual std::string summary() const = 0;  // one line
  // The variants, the default first; --variant takes these names (any case where the engine allows).
  virtual std::vector<EngineVariant> variants() const = 0;
  // The option the engine's variant was spelled with before --variant ("--arch"); "" for none.
  virtual std::string variant_alias() const { return ""; }
  // The variant's canonical name, or tmu::Error (BadInput) naming the variants.
  virtual std::string canonical_variant(std::string_view name) const;

  virtual const WordCodec* words() const { return nullptr; }
  virtual const ProgramRunner* programs() const { return nullptr; }
  virtual const VectorFiles* vectors() const { return nullptr; }
  virtual const ScoreboardFactory* scoreboards() const { return nullptr; }
  virtual const AuditTables* audit_tables() const { return nullptr; }
};

// The capability, or tmu::Error (BadInput) "the NAME engine has no ..." (words: "... instruction
// words USE", e.g. "to disassemble").
const WordCodec& words_of(const Engine& e, std::string_view use = "");
const ProgramRunner& programs_of(const Engine& e);
const VectorFiles& vectors_of(const Engine& e);
const ScoreboardFactory& scoreboards_of(const Engine& e);

// The registry. Engines are listed in registration order; the first is the default engine, whose
// vector files may omit the "engine" line.
void register_engine(std::unique_ptr<Engine> engine);  // replaces one of the same name
const std::vector<const Engine*>& engines();
const Engine* find_engine(std::string_view name);       // null when none has that name
const Engine& default_engine();                          // throws tmu::Error when none is registered
std::string engine_names();                              // "a, b or c", in registration order

// Registers the engines built into this tmu (generated from refmodel/engines/CMakeLists.txt's
// TMU_ENGINES list; defined in tmu_engines), then the engine plugins (below). Idempotent once it
// has succeeded; throws tmu::Error (BadInput) naming a plugin that cannot be loaded.
void register_builtin_engines();

// Engine plugins: shared libraries named in the environment variable TMU_ENGINE_PLUGINS (paths
// separated by ':'), each defining
//   extern "C" tmu::Engine* tmu_engine_plugin_v1();
// which returns a new engine the registry then owns. A plugin is built against the same tmu (its
// headers and tmu::common), so a team's own engine reaches the command line, the DPI-C library,
// the audit and the Python package of an installed tmu without rebuilding it (docs/architecture.md).
inline constexpr const char* kEnginePluginVariable = "TMU_ENGINE_PLUGINS";
inline constexpr const char* kEnginePluginEntry = "tmu_engine_plugin_v1";
void register_engine_plugins();

}  // namespace tmu
