// Test vectors (docs/vector-format.md): one instruction (or a short sequence) together with exactly
// the state it reads and exactly the state it writes, in a line-oriented text format that any
// simulator or testbench can replay. This header is the whole library side: records, parsing,
// printing, replay against the reference model, and generation. The `tmu vectors` / `tmu check`
// commands and the co-simulation testbench are thin users of it.
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tmu/tensix/exec.h"
#include "tmu/tensix/l1_formats.h"
#include "tmu/program_error.h"
#include "tmu/tensix/state.h"

namespace tmu::tensix::vectors {


// ---------------------------------------------------------------------------------------------
// Records: one architectural location and its value.
// ---------------------------------------------------------------------------------------------

// Where a record lives. The field spaces name their field by index into field_names(space).
enum class Space : uint8_t {
  Config,        // cfg STATE NAME HEX           Config[STATE]
  ThreadConfig,  // tcfg THREAD NAME HEX         ThreadConfig[THREAD]
  AddrMod,       // addrmod THREAD SLOT NAME HEX ADDR_MOD slot of ThreadConfig[THREAD]
  Rwc,           // rwc THREAD NAME HEX          RWCs[THREAD]
  Global,        // global NAME HEX              bank pointers, SHIFTXA latch, debug/access config
  Bank,          // bank srca|srcb BANK NAME HEX AllowedClient (0 Unpackers, 1 MatrixUnit), Format
  Unpacker,      // unpacker INDEX NAME HEX      SrcBank of unpacker 0 (SrcA) / 1 (SrcB)
  Gpr,           // gpr THREAD INDEX HEX8
  SrcA,          // srca BANK ROW HEX5 x16
  SrcB,          // srcb BANK ROW HEX5 x16
  Dst,           // dst ROW VALID HEX4 x16      one DstBits row (the 16-bit storage) and its validity
  DstValid,      // dstvalid ROW VALID          validity only; in `expect`: the bits must be unchanged
  // Format version 3 (UNPACR and PACR):
  L1,            // l1line ADDR HEX2 x16        one 16-byte line of L1 (ADDR a multiple of 16)
  Adc,           // adc THREAD UNIT CH NAME HEX an ADC counter (UNIT unpacker0 unpacker1 packer)
  Packer,        // packer NAME HEX             packer 0's output stream state
  SrcRow,        // srcrow UNPACKER THREAD HEX  where unpacker UNPACKER writes next for THREAD
};
inline constexpr unsigned kNumSpaces = 16;
// The version a file with L1, ADC, packer or SrcRow records carries.
inline constexpr unsigned kL1FormatVersion = 3;
bool is_l1_space(Space s);  // L1 .. SrcRow
const char* space_keyword(Space s);  // "cfg", "tcfg", ...
bool is_field_space(Space s);         // Config .. Unpacker

// Field names of a field space, in a fixed order (the index a Record stores), and their widths.
const std::vector<std::string_view>& field_names(Space s);  // empty for non-field spaces
unsigned field_width(Space s, unsigned field);
// Index of a field by name (exact, case-sensitive as printed), or -1.
int find_field(Space s, std::string_view name);

struct Record {
  Space space = Space::Config;
  // Indices, by space: Config a=state; ThreadConfig/Rwc a=thread; AddrMod a=thread b=slot;
  // Bank a=0 SrcA / 1 SrcB, b=bank; Unpacker a=index; Gpr a=thread b=index; SrcA/SrcB a=bank
  // b=row; Dst/DstValid a=row; L1 a:b = the line number (address / 16), high:low 16 bits; Adc
  // a=thread b=unit*2+channel; SrcRow a=unpacker b=thread.
  uint16_t a = 0, b = 0;
  uint16_t field = 0;                // field spaces
  uint32_t value = 0;                // field value, GPR value, Dst/DstValid validity (0/1)
  std::array<uint32_t, 16> row{};    // SrcA/SrcB datums, DstBits values or L1 bytes
  int line = 0;                      // source line when parsed (0 when generated)

  // Locations compare by space and indices (and field), never by value.
  uint64_t location_key() const;
};

// An L1 record's line address (bytes), and the record naming a line.
uint32_t l1_line_address(const Record& r);
Record l1_line_location(uint32_t addr);

// Reads / writes the record's location in a state (the value or the row, plus validity for Dst).
Record read_location(const TensixState& s, const Record& location);
void write_location(TensixState& s, const Record& r);

// How the values of a kind of location are decoded in comments and diffs (never for checking).
enum class View : uint8_t { Raw, BF16, FP16, TF32, INT8, FP32, INT32 };
const char* view_name(View v);
bool parse_view(std::string_view name, View* out);
bool is_dst32_view(View v);  // FP32 / INT32: Dst rows pair up as the two halves of Dst32b rows

// ---------------------------------------------------------------------------------------------
// Vectors and files
// ---------------------------------------------------------------------------------------------

// A packer or unpacker conversion (l1_formats.h) instead of instructions: the `pack` / `unpack`
// records of format version 2 (docs/vector-format.md, "Conversion records"). The architecture is the
// file's.
struct Conversion {
  bool pack = true;
  PackConfig pack_cfg;      // pack: from, to, intermediate, exp_threshold, l1_acc (arch: the file's)
  UnpackConfig unpack_cfg;  // unpack: from, to, target, fp8_e4m3
  std::vector<uint32_t> in;        // pack: the Dst datums, right-aligned IEEE-order patterns
  std::vector<uint8_t> l1;         // pack with acc: the L1 bytes before; unpack: the L1 bytes read
  std::vector<uint8_t> expect_l1;  // pack: the L1 bytes written
  std::vector<uint32_t> expect_datums;  // unpack: the Src datums or Dst32b patterns
  std::vector<int> expect_lines;   // when parsed: the line of each expected byte or datum
};
inline constexpr unsigned kConversionFormatVersion = 2;  // the version a file with conversions carries

struct Vector {
  std::string name;
  unsigned thread = 0;  // the issuing thread
  View srca_view = View::Raw, srcb_view = View::Raw, dst_view = View::Raw;
  std::vector<Record> init;     // every location the instructions read (and prior values they keep)
  std::vector<uint32_t> words;  // raw instruction words, executed in order
  std::vector<Record> expect;   // exactly the locations the instructions write, with their values
  std::string note;             // free text printed as a comment after `vector NAME`
  int line = 0, end_line = 0;   // `vector` and `end` lines when parsed
  std::vector<int> word_lines;
  std::optional<Conversion> conversion;  // set: a conversion vector (no init, insn or expect records)
};

// One output datum of one instruction: a written Dst datum (a Dst32b datum counts once although it
// spans two DstBits rows), a written Src datum, or a written GPR. Validity-only Dst records and
// counter/bank/config writes are not counted.
uint64_t element_cases(const Vector& v);

struct VectorFile {
  Arch arch = Arch::Blackhole;
  std::vector<std::string> header;  // comment lines written after the version line (without "# ")
  std::vector<Vector> vectors;
};

// A malformed line, an unknown instruction, a field or index out of range, a truncated file, or a
// vector the model refuses to run: reported as "file:line: reason" (exit status 2 in `tmu check`).
// A malformed file, or a vector the model cannot run: "file:line: reason" (tmu/program_error.h).
using VectorError = ProgramError;

VectorFile parse_vector_file(std::istream& in, const std::string& file);
// The text of a file, deterministic byte for byte.
std::string format_vector_file(const VectorFile& f);

// ---------------------------------------------------------------------------------------------
// Replay
// ---------------------------------------------------------------------------------------------

struct ReplayOptions {
  // Start from a state whose every location the vector does not list is random (seeded) instead
  // of the reset state: proves that `init` lists everything the instruction reads.
  bool poison = false;
  uint64_t poison_seed = 0;
  unsigned max_differences_per_vector = 16;
};

struct Difference {
  std::string vector;
  int line = 0;      // the expect record's line, or the vector's line for an unexpected write
  std::string text;  // location, expected vs actual bits and decoded values
};

struct ReplayReport {
  uint64_t vectors = 0;
  uint64_t failed_vectors = 0;
  uint64_t element_cases = 0;
  uint64_t locations = 0;  // expect records checked
  std::vector<Difference> differences;
};

// The state a vector starts from: reset (or poisoned) plus its init records.
TensixState initial_state(const VectorFile& f, const Vector& v, const ReplayOptions& options);
// Compares what the instructions wrote (`writes`, the union of their WriteSets; `after` the final
// state; `before` the initial state) against v.expect. Appends to `out`; returns false on a mismatch.
bool compare_vector(const Vector& v, const TensixState& before, const TensixState& after, const WriteSet& writes,
                    const ReplayOptions& options, std::vector<Difference>& out);
// Replays every vector. Throws VectorError (naming the instruction's line) when the model cannot
// run a vector: an instruction that stalls or that the model refuses.
ReplayReport replay_file(const VectorFile& f, const std::string& file, const ReplayOptions& options = {});

// ---------------------------------------------------------------------------------------------
// Generation
// ---------------------------------------------------------------------------------------------

// One vector file of the generated set: family x data format x fidelity phase x Dst mode x option.
struct FileSpec {
  std::string family;  // mvmul elwmul elwadd elwsub gmpool mov zeroacc src rwc shift legacy gpr l1
  std::string stem;    // file name without extension, unique within the family
  std::string format;  // bf16 fp16 tf32 int8, or "" when the family has no data format
  int phase = -1;      // fidelity phase 0..3, or -1
  int dst_bits = 0;    // 16 or 32, or 0
  std::string option;  // broadcast / argmax / instruction variant, or ""
  std::string relative_path() const;  // family/stem.tmv
};

struct GenerateOptions {
  Arch arch = Arch::Blackhole;
  unsigned level = 1;            // 1: special-value classes crossed; 2: plus random vectors
  unsigned random_vectors = 16;  // level 2: random vectors per file (-n)
  uint64_t seed = 1;
  unsigned level1_limit = 0;     // at most this many level-1 vectors per file, evenly spread (0: all)
};

struct FileFilter {
  std::vector<std::string> families, formats;  // empty: all
  std::vector<int> phases, dst_bits;
};

std::vector<std::string> family_names();
// The files a generation run writes, in a fixed order. Unknown names in the filter throw
// tmu::Error(BadInput).
std::vector<FileSpec> plan_files(const FileFilter& filter);
// The files of the checked-in corpus (vectors/corpus/README.md): a sample of plan_files({}) that
// keeps every family, format, Dst mode and option but one fidelity phase per combination (rotating),
// and on Wormhole every fourth of those files of each family.
std::vector<FileSpec> plan_corpus_files(Arch arch);
VectorFile generate_file(const FileSpec& spec, const GenerateOptions& options);
// The per-file seed: the run's seed mixed with the file's path, so a file's random vectors do not
// depend on which other files a run generates.
uint64_t file_seed(uint64_t run_seed, const FileSpec& spec);

}  // namespace tmu::tensix::vectors
