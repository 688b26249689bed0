// The generators behind generate_file(): one per instruction family, each producing the level-1
// vectors of a file by index (so a limited run can pick an even spread without building the rest)
// and level-2 random vectors from the file's random stream.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "builder.h"
#include "tmu/rng.h"
#include "values.h"

namespace tmu::tensix::vectors::detail {

class FileGenerator {
 public:
  virtual ~FileGenerator() = default;
  // Comment lines for the file header: what the file covers and what its classes are.
  virtual std::vector<std::string> describe() const = 0;
  virtual size_t level1_count() const = 0;
  // Vectors come back unnamed; generate_file() names them.
  virtual Vector level1(size_t index) const = 0;
  virtual Vector random(Rng& rng) const = 0;
};

// Each family file adds its FileSpecs to the plan (in a fixed order) and builds the generator for
// one of them.
void plan_matrix_files(std::vector<FileSpec>& out);  // mvmul elwmul elwadd elwsub
std::unique_ptr<FileGenerator> make_matrix_generator(const FileSpec& spec, Arch arch);
void plan_gmpool_files(std::vector<FileSpec>& out);
std::unique_ptr<FileGenerator> make_gmpool_generator(const FileSpec& spec, Arch arch);
void plan_mov_files(std::vector<FileSpec>& out);
std::unique_ptr<FileGenerator> make_mov_generator(const FileSpec& spec, Arch arch);
void plan_housekeeping_files(std::vector<FileSpec>& out);  // zeroacc src rwc shift legacy
std::unique_ptr<FileGenerator> make_housekeeping_generator(const FileSpec& spec, Arch arch);
void plan_gpr_files(std::vector<FileSpec>& out);
std::unique_ptr<FileGenerator> make_gpr_generator(const FileSpec& spec, Arch arch);
void plan_l1_files(std::vector<FileSpec>& out);  // packer and unpacker conversions
std::unique_ptr<FileGenerator> make_l1_generator(const FileSpec& spec, Arch arch);
void plan_l1_insn_files(std::vector<FileSpec>& out);  // unpacr pacr: the instructions on L1
std::unique_ptr<FileGenerator> make_l1_insn_generator(const FileSpec& spec, Arch arch);

// ---- Shared by the Matrix Unit generators: the configuration an arithmetic instruction reads ----

// How the Src formats reach the Matrix Unit: the bank's format tag (Blackhole), ALU_FORMAT_SPEC_REG
// (Wormhole, or Blackhole with implied formats disabled) or the ALU_FORMAT_SPEC override.
enum class FormatPath : uint8_t { BankTag, SpecReg, Override };

// Everything besides the operands: addressing, fidelity split, bank pointers and the AddrMod slot.
// Level 1 uses the all-zero environment (phase in the fidelity RWC); level 2 randomises it.
struct MathEnv {
  unsigned thread = 0;  // the issuing thread (its RWCs, ThreadConfig and ADDR_MOD slots)
  unsigned state_id = 0;
  unsigned srca_bank = 0, srcb_bank = 0;
  unsigned phase_base = 0, phase_rwc = 0;
  uint32_t dst_row_field = 0, dst_offset = 0, regw_base = 0;
  Rwc rwc{};  // FidelityPhase is phase_rwc
  uint32_t addr_mod = 0;
  AddrModAB ab{};
  AddrModDst dst{};
  AddrModBias bias{};
  bool addr_mod_set_base = false;  // Wormhole
  bool flip_a = false, flip_b = false, clr_disable_a = false, clr_disable_b = false;
  FormatPath path = FormatPath::BankTag;
  bool zero_flag_disabled = false;
};

MathEnv level1_env(unsigned phase);
// Random addressing and AddrMod; flips only when the instruction has the fields.
MathEnv random_env(Rng& rng, Arch arch, Op op, unsigned phase);

struct MathConfig {
  Fmt fmt = Fmt::BF16;
  bool dst32 = false;
  bool reads_fidelity = true;  // MVMUL/ELW read the fidelity phase and the zero flag (fpu_mode)
  bool flips = true;           // the instruction has FlipSrcA/FlipSrcB
};
// Sets and lists the configuration of math_mode()/fpu_mode(), the bank pointers and ownership,
// the Dst address offsets, all RWCs and the AddrMod slot the instruction will apply.
void apply_math_env(Builder& b, const MathConfig& c, const MathEnv& e);
// The pieces of apply_math_env, for instructions that read only some of it.
void apply_rwcs(Builder& b, const Rwc& r);
void apply_addr_mod_slot(Builder& b, const MathEnv& e);
void apply_dst_offsets(Builder& b, const MathEnv& e);
// Bank pointers, the Matrix Unit's ownership of the banks it waits for, and what a flip reads.
void apply_banks(Builder& b, const MathEnv& e, bool need_a, bool need_b, bool flips);
// DstRow + DEST_TARGET_REG_CFG_MATH_Offset + RWC.Dst + DEST_REGW_BASE_Base (before the block mask).
uint32_t dst_row_unaligned(const MathEnv& e);
// The ADDR_MOD slot the instruction's AddrMod field selects.
unsigned addr_mod_slot(Arch arch, const MathEnv& e);

// Values of a row laid out by a function of the column.
template <typename F>
std::array<uint32_t, 16> row_of(F f) {
  std::array<uint32_t, 16> r{};
  for (unsigned c = 0; c < 16; ++c) r[c] = f(c);
  return r;
}

// "a b c ..." of class names, for header lines.
template <typename Classes>
std::string class_legend(const Classes& classes) {
  std::string s;
  for (size_t i = 0; i < classes.size(); ++i) s += (i ? ", " : "") + std::to_string(i) + " " + classes[i].name;
  return s;
}

}  // namespace tmu::tensix::vectors::detail
