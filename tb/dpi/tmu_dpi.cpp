// The DPI-C adapter between the SystemVerilog testbench (tb/dpi/tmu_dpi.svh) and the scoreboard
// (refmodel/engines/tensix/include/tmu/tensix/scoreboard.h). Each function checks its handle, turns svBitVecVal vectors and
// ints into plain integers, and makes one call into the scoreboard (or onto the observation being
// built). No exception crosses into the simulator: failures return -1 and leave the reason for
// tmu_sb_last_error. The simulator's own DPI runtime is never called (only svdpi.h's types), so this
// file also links into a plain C++ test without a simulator.
// (Over 600 lines: the whole C ABI is kept in this one thin file, so the boundary is in one place.)
#include <array>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "Vtmu_dpi__Dpi.h"  // generated from tmu_dpi.svh: the compiler checks these definitions against it
#include "dpi_handles.h"
#include "svdpi.h"
#include "tmu/bits.h"
#include "tmu/error.h"
#include "tmu/tensix/scoreboard.h"
#include "tmu_dpi_host.h"

namespace {

constexpr unsigned kSrcDatumBits = 19;
constexpr unsigned kDstDatumBits = 16;

// One scoreboard plus the record being assembled between tmu_sb_obs_begin and tmu_sb_retire, and
// the RTL state being assembled between tmu_sb_dump_begin and tmu_sb_final_compare.
struct Session {
  explicit Session(tmu::tensix::ScoreboardOptions o) : scoreboard(std::move(o)) {}
  tmu::tensix::Scoreboard scoreboard;
  std::unique_ptr<tmu::tb::Driver> driver;  // the co-simulation's stimulus side (tmu_drv_*), if any
  std::optional<tmu::tensix::Observation> observation;
  std::unique_ptr<tmu::tensix::TensixState> dump;
  std::string last_error;
  std::string report;  // keeps the text tmu_sb_report returned alive
  uint64_t inject_fault_cycle = 0;  // DriverOptions::inject_fault_cycle; 0 once used
};

// DriverOptions::inject_fault_cycle: flips bit 0 of the first datum the instruction wrote, if it
// wrote a Dst row's data or a GPR, and reports whether it did.
bool inject_fault(tmu::tensix::Observation& obs) {
  for (tmu::tensix::ObservedDstRow& d : obs.dst)
    if (d.has_values) {
      d.values[0] ^= 1;
      return true;
    }
  if (!obs.gprs.empty()) {
    obs.gprs.front().value ^= 1;
    return true;
  }
  return false;
}

using tmu::dpi::count_of;
using tmu::dpi::refuse;

tmu::dpi::Handles<Session>& sessions() {
  static tmu::dpi::Handles<Session> h;
  return h;
}

Session* session_of(void* h) { return sessions().find(h); }

template <typename Body>
int guarded(void* h, const char* function, Body&& body) {
  return sessions().guarded(h, function, std::forward<Body>(body));
}

// Bits [lo + width - 1 : lo] of a packed SystemVerilog vector (canonical svBitVecVal layout: bit i
// is bit i % 32 of word i / 32). A field may straddle two words.
uint32_t packed_field(const svBitVecVal* v, unsigned lo, unsigned width) {
  const unsigned word = lo / 32, shift = lo % 32;
  uint64_t both = v[word];
  if (shift + width > 32) both |= uint64_t{v[word + 1]} << 32;
  return static_cast<uint32_t>(both >> shift) & tmu::low_mask(width);
}

std::array<uint32_t, tmu::tensix::kSrcCols> src_row_of(const svBitVecVal* v) {
  std::array<uint32_t, tmu::tensix::kSrcCols> row{};
  for (unsigned c = 0; c < tmu::tensix::kSrcCols; ++c) row[c] = packed_field(v, c * kSrcDatumBits, kSrcDatumBits);
  return row;
}

std::array<uint16_t, tmu::tensix::kDstCols> dst_row_of(const svBitVecVal* v) {
  std::array<uint16_t, tmu::tensix::kDstCols> row{};
  for (unsigned c = 0; c < tmu::tensix::kDstCols; ++c)
    row[c] = static_cast<uint16_t>(packed_field(v, c * kDstDatumBits, kDstDatumBits));
  return row;
}

tmu::tensix::SrcOperand operand_of(unsigned operand) {
  if (operand > 1) refuse("operand must be 0 (SrcA) or 1 (SrcB), got " + std::to_string(operand));
  return static_cast<tmu::tensix::SrcOperand>(operand);
}

tmu::tensix::DataFormat format_of(unsigned code) {
  if (!tmu::tensix::is_valid_data_format_code(code)) refuse("data format code " + std::to_string(code) + " names no format");
  return static_cast<tmu::tensix::DataFormat>(code);
}

tmu::tensix::SrcClient owner_of(bool matrix_unit) { return matrix_unit ? tmu::tensix::SrcClient::MatrixUnit : tmu::tensix::SrcClient::Unpackers; }

tmu::tensix::FieldScope scope_of(const std::string& name) {
  if (name == "config") return tmu::tensix::FieldScope::Config;
  if (name == "threadconfig") return tmu::tensix::FieldScope::ThreadConfig;
  if (name == "addrmod") return tmu::tensix::FieldScope::AddrMod;
  if (name == "rwc") return tmu::tensix::FieldScope::Rwc;
  if (name == "global") return tmu::tensix::FieldScope::Global;
  refuse("unknown scope '" + name + "' (config, threadconfig, addrmod, rwc, global)");
}

template <typename T>
T narrow(unsigned value, unsigned width, const char* what) {
  if (value > tmu::low_mask(width)) refuse(std::string(what) + " " + std::to_string(value) + " does not fit " + std::to_string(width) + " bits");
  return static_cast<T>(value);
}

tmu::tensix::Rwc rwc_of(unsigned dst, unsigned dst_cr, unsigned srca, unsigned srca_cr, unsigned srcb, unsigned srcb_cr,
                unsigned fidelity, unsigned extra) {
  tmu::tensix::Rwc r;
  r.Dst = narrow<uint16_t>(dst, 10, "RWC Dst");
  r.Dst_Cr = narrow<uint16_t>(dst_cr, 10, "RWC Dst_Cr");
  r.SrcA = narrow<uint8_t>(srca, 6, "RWC SrcA");
  r.SrcA_Cr = narrow<uint8_t>(srca_cr, 6, "RWC SrcA_Cr");
  r.SrcB = narrow<uint8_t>(srcb, 6, "RWC SrcB");
  r.SrcB_Cr = narrow<uint8_t>(srcb_cr, 6, "RWC SrcB_Cr");
  r.FidelityPhase = narrow<uint8_t>(fidelity, 2, "RWC FidelityPhase");
  r.ExtraAddrModBit = narrow<uint8_t>(extra, 1, "RWC ExtraAddrModBit");
  return r;
}

tmu::tensix::Observation& observation_of(Session& s) {
  if (!s.observation) refuse("no instruction is being observed (call tmu_sb_obs_begin first)");
  return *s.observation;
}

tmu::tensix::TensixState& dump_of(Session& s) {
  if (!s.dump) refuse("no state dump is open (call tmu_sb_dump_begin first)");
  return *s.dump;
}

tmu::tensix::StageProbe& probe_of(tmu::tensix::Observation& o, unsigned row, unsigned col) {
  if (row >= tmu::tensix::kDstRows || col >= tmu::tensix::kDstCols) refuse("probe element out of range");
  for (tmu::tensix::StageProbe& p : o.probes)
    if (p.dst_row == row && p.col == col) return p;
  o.probes.push_back(tmu::tensix::StageProbe{static_cast<uint16_t>(row), static_cast<uint8_t>(col), {}, {}, {}, {}});
  return o.probes.back();
}


}  // namespace

extern "C" {

// ---- Session ----

void* tmu_sb_create(const char* arch, const char* test_name, unsigned long long seed, const char* replay_command,
                    const char* replay_dir) {
  const auto a = tmu::tensix::parse_arch(arch ? arch : "");
  if (!a) return nullptr;
  tmu::tensix::ScoreboardOptions o;
  o.arch = *a;
  o.test_name = test_name ? test_name : "";
  o.seed = seed;
  o.replay_command_template = replay_command ? replay_command : "";
  o.replay_dir = replay_dir ? replay_dir : "";
  try {
    return sessions().adopt(std::make_unique<Session>(std::move(o)));
  } catch (const std::exception&) {
    return nullptr;
  }
}

void tmu_sb_destroy(void* h) { sessions().destroy(h); }

// ---- Stimulus ----

int tmu_sb_set_field(void* h, const char* scope, const char* name, unsigned int thread, unsigned int index,
                     unsigned int value) {
  return guarded(h, "tmu_sb_set_field", [&](Session& s) {
    s.scoreboard.set_field(scope_of(scope ? scope : ""), name ? name : "", value, thread, index);
    return 0;
  });
}

int tmu_sb_set_addr_mod(void* h, unsigned int thread, unsigned int slot, unsigned int srca_incr, svBit srca_cr,
                        svBit srca_clear, unsigned int srcb_incr, svBit srcb_cr, svBit srcb_clear,
                        unsigned int dest_incr, svBit dest_cr, svBit dest_clear, svBit dest_c_to_cr,
                        unsigned int fidelity_incr, svBit fidelity_clear, unsigned int bias_incr, svBit bias_clear) {
  return guarded(h, "tmu_sb_set_addr_mod", [&](Session& s) {
    const tmu::tensix::AddrModAB ab{narrow<uint8_t>(srca_incr, 6, "SrcAIncr"), srca_cr != 0, srca_clear != 0,
                            narrow<uint8_t>(srcb_incr, 6, "SrcBIncr"), srcb_cr != 0, srcb_clear != 0};
    const tmu::tensix::AddrModDst dst{narrow<uint16_t>(dest_incr, 10, "DestIncr"), dest_cr != 0, dest_clear != 0,
                              dest_c_to_cr != 0, narrow<uint8_t>(fidelity_incr, 2, "FidelityIncr"), fidelity_clear != 0};
    const tmu::tensix::AddrModBias bias{narrow<uint8_t>(bias_incr, 4, "BiasIncr"), bias_clear != 0};
    s.scoreboard.set_addr_mod(thread, slot, ab, dst, bias);
    return 0;
  });
}

int tmu_sb_unpack_src_row(void* h, unsigned int operand, unsigned int row, const svBitVecVal* values, unsigned int format) {
  return guarded(h, "tmu_sb_unpack_src_row", [&](Session& s) {
    s.scoreboard.unpack_src_row(operand_of(operand), row, src_row_of(values), format_of(format));
    return 0;
  });
}

int tmu_sb_hand_over_src_bank(void* h, unsigned int operand) {
  return guarded(h, "tmu_sb_hand_over_src_bank", [&](Session& s) {
    s.scoreboard.hand_over_src_bank(operand_of(operand));
    return 0;
  });
}

int tmu_sb_preload_src_row(void* h, unsigned int operand, unsigned int bank, unsigned int row, const svBitVecVal* values) {
  return guarded(h, "tmu_sb_preload_src_row", [&](Session& s) {
    s.scoreboard.preload_src_row(operand_of(operand), bank, row, src_row_of(values));
    return 0;
  });
}

int tmu_sb_set_src_bank(void* h, unsigned int operand, unsigned int bank, svBit matrix_unit_owns, unsigned int format) {
  return guarded(h, "tmu_sb_set_src_bank", [&](Session& s) {
    s.scoreboard.set_src_bank(operand_of(operand), bank, owner_of(matrix_unit_owns), format_of(format));
    return 0;
  });
}

int tmu_sb_set_unpacker_bank(void* h, unsigned int operand, unsigned int bank) {
  return guarded(h, "tmu_sb_set_unpacker_bank", [&](Session& s) {
    s.scoreboard.set_unpacker_bank(operand_of(operand), bank);
    return 0;
  });
}

int tmu_sb_preload_dst_row(void* h, unsigned int row, const svBitVecVal* values, svBit valid) {
  return guarded(h, "tmu_sb_preload_dst_row", [&](Session& s) {
    s.scoreboard.preload_dst_row(row, dst_row_of(values), valid != 0);
    return 0;
  });
}

int tmu_sb_preload_gpr(void* h, unsigned int thread, unsigned int index, unsigned int value) {
  return guarded(h, "tmu_sb_preload_gpr", [&](Session& s) {
    s.scoreboard.preload_gpr(thread, index, value);
    return 0;
  });
}

// ---- Observation of one retired instruction ----

int tmu_sb_obs_begin(void* h, unsigned int thread, unsigned int word, unsigned long long cycle) {
  return guarded(h, "tmu_sb_obs_begin", [&](Session& s) {
    if (s.observation) refuse("the previous observation was never retired (call tmu_sb_retire)");
    s.observation.emplace();
    s.observation->thread = narrow<uint8_t>(thread, 8, "thread");
    s.observation->word = word;
    s.observation->cycle = cycle;
    return 0;
  });
}

int tmu_sb_obs_verdict(void* h, unsigned int verdict) {
  return guarded(h, "tmu_sb_obs_verdict", [&](Session& s) {
    if (verdict > static_cast<unsigned>(tmu::tensix::RtlVerdict::Unsupported))
      refuse("verdict " + std::to_string(verdict) + " is not 0..3 (executed, decode error, undefined, unsupported)");
    observation_of(s).verdict = static_cast<tmu::tensix::RtlVerdict>(verdict);
    return 0;
  });
}

int tmu_sb_obs_dst_row(void* h, unsigned int row, const svBitVecVal* values, svBit valid) {
  return guarded(h, "tmu_sb_obs_dst_row", [&](Session& s) {
    observation_of(s).dst.push_back(tmu::tensix::ObservedDstRow{narrow<uint16_t>(row, 16, "Dst row"), dst_row_of(values), valid != 0, true});
    return 0;
  });
}

int tmu_sb_obs_dst_valid(void* h, unsigned int row, svBit valid) {
  return guarded(h, "tmu_sb_obs_dst_valid", [&](Session& s) {
    observation_of(s).dst.push_back(tmu::tensix::ObservedDstRow{narrow<uint16_t>(row, 16, "Dst row"), {}, valid != 0, false});
    return 0;
  });
}

int tmu_sb_obs_src_row(void* h, unsigned int operand, unsigned int bank, unsigned int row, const svBitVecVal* values) {
  return guarded(h, "tmu_sb_obs_src_row", [&](Session& s) {
    observation_of(s).src.push_back(tmu::tensix::ObservedSrcRow{operand_of(operand), narrow<uint8_t>(bank, 8, "bank"),
                                                        narrow<uint8_t>(row, 8, "Src row"), src_row_of(values)});
    return 0;
  });
}

int tmu_sb_obs_gpr(void* h, unsigned int thread, unsigned int index, unsigned int value) {
  return guarded(h, "tmu_sb_obs_gpr", [&](Session& s) {
    observation_of(s).gprs.push_back(tmu::tensix::ObservedGpr{narrow<uint8_t>(thread, 8, "thread"), narrow<uint8_t>(index, 8, "GPR index"), value});
    return 0;
  });
}

int tmu_sb_obs_rwcs(void* h, unsigned int dst, unsigned int dst_cr, unsigned int srca, unsigned int srca_cr,
                    unsigned int srcb, unsigned int srcb_cr, unsigned int fidelity_phase, unsigned int extra_addr_mod_bit) {
  return guarded(h, "tmu_sb_obs_rwcs", [&](Session& s) {
    observation_of(s).rwcs = rwc_of(dst, dst_cr, srca, srca_cr, srcb, srcb_cr, fidelity_phase, extra_addr_mod_bit);
    return 0;
  });
}

int tmu_sb_obs_banks(void* h, unsigned int srca_bank, unsigned int srcb_bank, const svBitVecVal* srca_owners,
                     const svBitVecVal* srcb_owners, unsigned int unpacker0_bank, unsigned int unpacker1_bank) {
  return guarded(h, "tmu_sb_obs_banks", [&](Session& s) {
    tmu::tensix::ObservedBanks b;
    b.srca_bank = narrow<uint8_t>(srca_bank, 1, "SrcA bank");
    b.srcb_bank = narrow<uint8_t>(srcb_bank, 1, "SrcB bank");
    for (unsigned i = 0; i < tmu::tensix::kSrcBanks; ++i) {
      b.srca_allowed[i] = owner_of(packed_field(srca_owners, i, 1));
      b.srcb_allowed[i] = owner_of(packed_field(srcb_owners, i, 1));
    }
    b.unpacker_bank = {narrow<uint8_t>(unpacker0_bank, 1, "unpacker 0 bank"), narrow<uint8_t>(unpacker1_bank, 1, "unpacker 1 bank")};
    observation_of(s).banks = b;
    return 0;
  });
}

int tmu_sb_obs_last_srca_row(void* h, unsigned int row) {
  return guarded(h, "tmu_sb_obs_last_srca_row", [&](Session& s) {
    observation_of(s).last_srca_row = narrow<uint8_t>(row, 6, "LastSrcARow");
    return 0;
  });
}

int tmu_sb_obs_probe_groups(void* h, unsigned int row, unsigned int col, svBit g0_sign, int g0_exponent,
                            unsigned int g0_mantissa, svBit g1_sign, int g1_exponent, unsigned int g1_mantissa) {
  return guarded(h, "tmu_sb_obs_probe_groups", [&](Session& s) {
    probe_of(observation_of(s), row, col).group_sums = std::array<tmu::tensix::fpu::AccTerm, 2>{
        tmu::tensix::fpu::AccTerm{g0_sign ? 1u : 0u, g0_exponent, g0_mantissa},
        tmu::tensix::fpu::AccTerm{g1_sign ? 1u : 0u, g1_exponent, g1_mantissa}};
    return 0;
  });
}

int tmu_sb_obs_probe_accum(void* h, unsigned int row, unsigned int col, unsigned int magnitude, unsigned int result_word) {
  return guarded(h, "tmu_sb_obs_probe_accum", [&](Session& s) {
    tmu::tensix::StageProbe& p = probe_of(observation_of(s), row, col);
    p.accum_magnitude = magnitude;
    p.result_word = result_word;
    return 0;
  });
}

int tmu_sb_retire(void* h) {
  return guarded(h, "tmu_sb_retire", [&](Session& s) {
    tmu::tensix::Observation obs = std::move(observation_of(s));
    s.observation.reset();
    if (s.inject_fault_cycle && obs.cycle >= s.inject_fault_cycle && inject_fault(obs)) s.inject_fault_cycle = 0;
    return count_of(s.scoreboard.retire(obs).size());
  });
}

// ---- End-of-test state dump ----

int tmu_sb_dump_begin(void* h) {
  return guarded(h, "tmu_sb_dump_begin", [&](Session& s) {
    // Configuration is stimulus the testbench drove into both; every piece of data starts cleared.
    const tmu::tensix::TensixState& m = s.scoreboard.model();
    s.dump = std::make_unique<tmu::tensix::TensixState>();
    tmu::tensix::TensixState& d = *s.dump;
    d.arch = m.arch;
    d.ThreadConfig = m.ThreadConfig;
    d.Config = m.Config;
    d.DbgFeatureDisableBit11 = m.DbgFeatureDisableBit11;
    d.DEST_ACCESS_CFG_zeroacc_absolute_tile_mode = m.DEST_ACCESS_CFG_zeroacc_absolute_tile_mode;
    for (unsigned b = 0; b < tmu::tensix::kSrcBanks; ++b) {
      d.SrcA[b].Format = m.SrcA[b].Format;
      d.SrcB[b].Format = m.SrcB[b].Format;
    }
    return 0;
  });
}

int tmu_sb_dump_dst_row(void* h, unsigned int row, const svBitVecVal* values, svBit valid) {
  return guarded(h, "tmu_sb_dump_dst_row", [&](Session& s) {
    tmu::tensix::TensixState& d = dump_of(s);
    if (row >= tmu::tensix::kDstRows) refuse("Dst storage row " + std::to_string(row) + " out of range");
    d.Dst.DstBits[row] = dst_row_of(values);
    d.Dst.RowValid[row] = valid != 0;
    return 0;
  });
}

int tmu_sb_dump_dst_read(void* h, unsigned int row, svBit dst32, const svBitVecVal* lanes) {
  return guarded(h, "tmu_sb_dump_dst_read", [&](Session& s) {
    std::array<uint32_t, 8 * tmu::tensix::kDstCols> values{};
    for (unsigned i = 0; i < values.size(); ++i) values[i] = packed_field(lanes, i * 32, 32);
    return count_of(s.scoreboard.compare_dst_read(row, dst32 != 0, values).size());
  });
}

int tmu_sb_dump_src_row(void* h, unsigned int operand, unsigned int bank, unsigned int row, const svBitVecVal* values) {
  return guarded(h, "tmu_sb_dump_src_row", [&](Session& s) {
    tmu::tensix::TensixState& d = dump_of(s);
    if (bank >= tmu::tensix::kSrcBanks || row >= tmu::tensix::kSrcRows) refuse("Src bank/row out of range");
    (operand_of(operand) == tmu::tensix::SrcOperand::SrcA ? d.SrcA : d.SrcB)[bank].Rows[row] = src_row_of(values);
    return 0;
  });
}

int tmu_sb_dump_src_bank(void* h, unsigned int operand, unsigned int bank, svBit matrix_unit_owns, unsigned int format) {
  return guarded(h, "tmu_sb_dump_src_bank", [&](Session& s) {
    tmu::tensix::TensixState& d = dump_of(s);
    if (bank >= tmu::tensix::kSrcBanks) refuse("Src bank out of range");
    tmu::tensix::SrcBank& b = (operand_of(operand) == tmu::tensix::SrcOperand::SrcA ? d.SrcA : d.SrcB)[bank];
    b.AllowedClient = owner_of(matrix_unit_owns);
    b.Format = format_of(format);
    return 0;
  });
}

int tmu_sb_dump_gpr(void* h, unsigned int thread, unsigned int index, unsigned int value) {
  return guarded(h, "tmu_sb_dump_gpr", [&](Session& s) {
    tmu::tensix::TensixState& d = dump_of(s);
    if (thread >= tmu::tensix::kNumThreads || index >= tmu::tensix::kNumGprs) refuse("GPR thread/index out of range");
    d.GPRs[thread][index] = value;
    return 0;
  });
}

int tmu_sb_dump_rwcs(void* h, unsigned int thread, unsigned int dst, unsigned int dst_cr, unsigned int srca,
                     unsigned int srca_cr, unsigned int srcb, unsigned int srcb_cr, unsigned int fidelity_phase,
                     unsigned int extra_addr_mod_bit) {
  return guarded(h, "tmu_sb_dump_rwcs", [&](Session& s) {
    tmu::tensix::TensixState& d = dump_of(s);
    if (thread >= tmu::tensix::kNumThreads) refuse("thread out of range");
    d.RWCs[thread] = rwc_of(dst, dst_cr, srca, srca_cr, srcb, srcb_cr, fidelity_phase, extra_addr_mod_bit);
    return 0;
  });
}

int tmu_sb_dump_banks(void* h, unsigned int srca_bank, unsigned int srcb_bank, unsigned int unpacker0_bank,
                      unsigned int unpacker1_bank, unsigned int last_srca_row) {
  return guarded(h, "tmu_sb_dump_banks", [&](Session& s) {
    tmu::tensix::TensixState& d = dump_of(s);
    d.MatrixUnit.SrcABank = narrow<uint8_t>(srca_bank, 1, "SrcA bank");
    d.MatrixUnit.SrcBBank = narrow<uint8_t>(srcb_bank, 1, "SrcB bank");
    d.Unpackers[0].SrcBank = narrow<uint8_t>(unpacker0_bank, 1, "unpacker 0 bank");
    d.Unpackers[1].SrcBank = narrow<uint8_t>(unpacker1_bank, 1, "unpacker 1 bank");
    d.MatrixUnit.LastSrcARow = narrow<uint8_t>(last_srca_row, 6, "LastSrcARow");
    return 0;
  });
}

int tmu_sb_final_compare(void* h) {
  return guarded(h, "tmu_sb_final_compare", [&](Session& s) {
    const tmu::tensix::TensixState& d = dump_of(s);
    const int n = count_of(s.scoreboard.final_compare(d).size());
    s.dump.reset();
    return n;
  });
}

// ---- Queries ----

unsigned long long tmu_sb_mismatch_count(void* h) {
  const Session* s = session_of(h);
  return s ? s->scoreboard.mismatch_count() : 0;
}

unsigned long long tmu_sb_retired_count(void* h) {
  const Session* s = session_of(h);
  return s ? s->scoreboard.retired() : 0;
}

const char* tmu_sb_report(void* h) {
  Session* s = session_of(h);
  if (!s) return "tmu_sb_report: invalid tmu scoreboard handle";
  s->report = s->scoreboard.report_text();
  return s->report.c_str();
}

const char* tmu_sb_last_error(void* h) {
  const Session* s = session_of(h);
  return s ? s->last_error.c_str() : "invalid tmu scoreboard handle";
}

// ---- Co-simulation driver (tb/driver/driver.h): the host program opens the session, the
// SystemVerilog top fetches it with tmu_drv_current and drives the RTL from it. ----

namespace {
void* g_current = nullptr;

tmu::tb::Driver& driver_of(Session& s) {
  if (!s.driver) refuse("this session has no driver (open it with tmu_tb_open)");
  return *s.driver;
}

void put_src_row(svBitVecVal* out, const std::array<uint32_t, 16>& row, unsigned bits) {
  for (unsigned w = 0; w < (16 * 19 + 31) / 32; ++w) out[w] = 0;
  for (unsigned c = 0; c < 16; ++c) {
    for (unsigned b = 0; b < bits; ++b) {
      const unsigned bit = c * bits + b;
      if ((row[c] >> b) & 1) out[bit / 32] |= 1u << (bit % 32);
    }
  }
}
}  // namespace

void* tmu_drv_current() { return g_current; }

int tmu_drv_preload(void* h, unsigned int* kind, unsigned int* a, unsigned int* b, unsigned int* c,
                    unsigned int* d, unsigned int* e, svBitVecVal* data) {
  return guarded(h, "tmu_drv_preload", [&](Session& s) {
    *kind = *a = *b = *c = *d = *e = 0;
    put_src_row(data, {}, 19);
    const auto p = driver_of(s).next_preload();
    if (!p) return 0;
    using K = tmu::tb::Preload::Kind;
    switch (p->kind) {
      case K::DstRow: *kind = 1; *a = p->row; *b = p->flag; put_src_row(data, p->values, 16); break;
      case K::SrcRow: *kind = 2; *a = p->operand; *b = p->bank; *c = p->row; put_src_row(data, p->values, 19); break;
      case K::BankState: *kind = 3; *a = p->operand; *b = p->bank; *c = p->flag; *d = p->value; break;
      case K::Pointers: *kind = 4; *a = p->operand; *b = p->mu_bank; *c = p->unp_bank; break;
      case K::Gpr: *kind = 5; *a = p->thread; *b = p->index; *d = p->value; break;
      case K::Config:
        *kind = 6; *a = static_cast<unsigned>(p->cfg.scope); *b = p->cfg.index; *c = p->cfg.thread;
        *d = p->cfg.field; *e = p->cfg.value; break;
    }
    return 0;
  });
}

int tmu_drv_drive(void* h, const svBitVecVal* unp_bank_mu_owned, svBit* issue_valid, unsigned int* issue_thread,
                  unsigned int* issue_word, svBit* cfg_we, unsigned int* cfg_scope, unsigned int* cfg_index,
                  unsigned int* cfg_thread, unsigned int* cfg_field, unsigned int* cfg_value, svBitVecVal* unp_we,
                  unsigned int* unp_row0, unsigned int* unp_row1, svBitVecVal* unp_data0, svBitVecVal* unp_data1,
                  unsigned int* unp_format0, unsigned int* unp_format1, svBitVecVal* unp_dvalid) {
  return guarded(h, "tmu_drv_drive", [&](Session& s) {
    const tmu::tb::DriveRequest r =
        driver_of(s).drive({(*unp_bank_mu_owned & 1) != 0, (*unp_bank_mu_owned & 2) != 0});
    *issue_valid = r.issue_valid;
    *issue_thread = r.issue_thread;
    *issue_word = r.issue_word;
    *cfg_we = r.cfg.has_value();
    const tmu::tb::RtlCfgWrite cfg = r.cfg.value_or(tmu::tb::RtlCfgWrite{});
    *cfg_scope = static_cast<unsigned>(cfg.scope);
    *cfg_index = cfg.index;
    *cfg_thread = cfg.thread;
    *cfg_field = cfg.field;
    *cfg_value = cfg.value;
    *unp_we = (r.unp_we[0] ? 1u : 0u) | (r.unp_we[1] ? 2u : 0u);
    *unp_dvalid = (r.unp_dvalid[0] ? 1u : 0u) | (r.unp_dvalid[1] ? 2u : 0u);
    *unp_row0 = r.unp_row[0];
    *unp_row1 = r.unp_row[1];
    put_src_row(unp_data0, r.unp_data[0], 19);
    put_src_row(unp_data1, r.unp_data[1], 19);
    *unp_format0 = r.unp_format[0];
    *unp_format1 = r.unp_format[1];
    return 0;
  });
}

int tmu_drv_handshake(void* h, svBit issue, svBit cfg, const svBitVecVal* unp_we, const svBitVecVal* unp_dvalid) {
  return guarded(h, "tmu_drv_handshake", [&](Session& s) {
    driver_of(s).handshake(issue != 0, cfg != 0, {(*unp_we & 1) != 0, (*unp_we & 2) != 0},
                           {(*unp_dvalid & 1) != 0, (*unp_dvalid & 2) != 0});
    driver_of(s).tick();
    return 0;
  });
}

int tmu_drv_retire(void* h, svBit gpr_unit) {
  return guarded(h, "tmu_drv_retire", [&](Session& s) {
    tmu::tb::Driver& d = driver_of(s);
    tmu::tensix::Observation obs = std::move(observation_of(s));
    s.observation.reset();
    if (s.inject_fault_cycle && obs.cycle >= s.inject_fault_cycle && inject_fault(obs)) s.inject_fault_cycle = 0;
    if (!d.checking()) {  // the speed baseline: the RTL's reports are built and dropped
      d.after_retire(gpr_unit != 0);
      return 0;
    }
    d.before_retire(obs.thread, obs.word);
    const size_t mismatches = s.scoreboard.retire(obs).size();
    d.after_retire(gpr_unit != 0);
    return count_of(mismatches);
  });
}

int tmu_drv_event(void* h, unsigned int mask, unsigned long long cycle) {
  static constexpr const char* kEvents[] = {"src_wait_stall", "dst_hazard_stall", "src_hazard_stall",
                                            "shiftxb_second_cycle", "gpr_thread_blocked"};
  return guarded(h, "tmu_drv_event", [&](Session& s) {
    for (unsigned i = 0; i < std::size(kEvents); ++i)
      if ((mask >> i) & 1) driver_of(s).event(kEvents[i], cycle);
    return 0;
  });
}

int tmu_drv_status(void* h) {
  return guarded(h, "tmu_drv_status", [&](Session& s) {
    const tmu::tb::Driver& d = driver_of(s);
    return d.finished() ? 1 : d.stuck() ? 2 : 0;
  });
}

}  // extern "C"

void* tmu_tb_open(const tmu::tb::DriverOptions& options, const std::string& replay_command,
                  const std::string& replay_dir, const std::string& tmu_command) {
  tmu::tensix::ScoreboardOptions o;
  o.arch = options.arch;
  o.test_name = options.test;
  o.seed = options.seed;
  o.replay_command_template = replay_command;
  o.replay_dir = replay_dir;
  o.tmu_command = tmu_command;
  auto s = std::make_unique<Session>(std::move(o));
  s->inject_fault_cycle = options.inject_fault_cycle;
  s->driver = std::make_unique<tmu::tb::Driver>(options, s->scoreboard);
  g_current = sessions().adopt(std::move(s));
  return g_current;
}

tmu::tb::Driver* tmu_tb_driver(void* h) {
  Session* s = session_of(h);
  return s ? s->driver.get() : nullptr;
}

std::string tmu_tb_last_error(void* h) {
  Session* s = session_of(h);
  return s ? s->last_error : std::string();
}

void tmu_tb_close(void* h) {
  if (h == g_current) g_current = nullptr;
  tmu_sb_destroy(h);
}

