// Architectural state of one Tensix coprocessor as far as the Matrix Unit (FPU) and the Scalar
// Unit's GPR ops see it. Plain data, named as the ISA documentation names it (SrcASrcB.md, Dst.md,
// RWCs.md, ScalarUnit.md, BackendConfiguration.md), so that a line of the ISA's functional model
// reads the same here. Behaviour lives in exec.h and refmodel/engines/tensix/src/insn/.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "tmu/tensix/formats.h"
#include "tmu/tensix/isa.h"

namespace tmu::tensix {

inline constexpr unsigned kNumThreads = 3;
inline constexpr unsigned kSrcBanks = 2;
inline constexpr unsigned kSrcRows = 64;
inline constexpr unsigned kSrcCols = 16;
inline constexpr unsigned kDstRows = 1024;   // rows of the 16-bit view
inline constexpr unsigned kDst32Rows = 512;  // rows of the 32-bit view
inline constexpr unsigned kDstCols = 16;
inline constexpr unsigned kNumGprs = 64;
inline constexpr unsigned kNumAddrMods = 8;
inline constexpr unsigned kNumConfigStates = 2;
inline constexpr uint32_t kSrcDatumMask = 0x7FFFF;  // Src datums are 19 bits

enum class SrcClient : uint8_t { Unpackers, MatrixUnit };
const char* src_client_name(SrcClient c);

struct SrcBank {
  SrcClient AllowedClient = SrcClient::Unpackers;
  // Blackhole: the data format the unpacker wrote with the data; the Matrix Unit infers its operand
  // style from it unless ThreadConfig.DISABLE_IMPLIED_SRC{A,B}_FMT_Base is set. Wormhole ignores it.
  DataFormat Format = DataFormat::FP32;
  std::array<std::array<uint32_t, kSrcCols>, kSrcRows> Rows{};
};

// DstBits is the storage; Dst16b and Dst32b are views of it (Dst.md). Validity is per DstBits row:
// ZEROACC clears it and leaves the bits; a read of an invalid row yields the reading instruction's
// identity (0 for accumulation, minus infinity for GMPOOL), which the caller supplies.
struct DstRegs {
  std::array<std::array<uint16_t, kDstCols>, kDstRows> DstBits{};
  std::array<bool, kDstRows> RowValid{};

  static constexpr uint32_t hi_row(uint32_t row32) { return adj32_row(row32 & (kDstRows - 1)); }
  static constexpr uint32_t lo_row(uint32_t row32) { return hi_row(row32) + kDst32LowHalfRowOffset; }

  uint16_t read16(uint32_t row, uint32_t col, uint16_t identity) const {
    row &= kDstRows - 1;
    return RowValid[row] ? DstBits[row][col] : identity;
  }
  void write16(uint32_t row, uint32_t col, uint16_t value) {
    write16_bits(row, col, value);
    RowValid[row & (kDstRows - 1)] = true;
  }
  // Bits only: validity is per row, so an instruction writing a row column by column must keep
  // reading the identity for the columns it has not written yet; it marks the row valid afterwards
  // (ttsim: "set_valid_on_last_column_only").
  void write16_bits(uint32_t row, uint32_t col, uint16_t value) { DstBits[row & (kDstRows - 1)][col] = value; }
  // In the 32-bit view the validity of the high-half row is what counts (ttsim, Dst.md).
  uint32_t read32(uint32_t row, uint32_t col, uint32_t identity) const {
    const uint32_t hi = hi_row(row);
    if (!RowValid[hi]) return identity;
    return (uint32_t{DstBits[hi][col]} << 16) | DstBits[lo_row(row)][col];
  }
  void write32(uint32_t row, uint32_t col, uint32_t value) {
    write32_bits(row, col, value);
    RowValid[hi_row(row)] = true;  // only the high-half row's validity is tracked for 32-bit data
  }
  void write32_bits(uint32_t row, uint32_t col, uint32_t value) {
    DstBits[hi_row(row)][col] = static_cast<uint16_t>(value >> 16);
    DstBits[lo_row(row)][col] = static_cast<uint16_t>(value & 0xFFFF);
  }
};

// Register-write counters, one set per thread (RWCs.md).
struct Rwc {
  uint16_t Dst = 0, Dst_Cr = 0;    // 10 bits
  uint8_t SrcA = 0, SrcA_Cr = 0;   // 6 bits
  uint8_t SrcB = 0, SrcB_Cr = 0;   // 6 bits
  uint8_t FidelityPhase = 0;       // 2 bits
  uint8_t ExtraAddrModBit = 0;     // 1 bit
};

// One ADDR_MOD slot, in the three ThreadConfig sections the ISA splits it into.
struct AddrModAB {
  uint8_t SrcAIncr = 0;  // 6 bits
  bool SrcACR = false, SrcAClear = false;
  uint8_t SrcBIncr = 0;  // 6 bits
  bool SrcBCR = false, SrcBClear = false;
};
struct AddrModDst {
  uint16_t DestIncr = 0;  // 10 bits
  bool DestCR = false, DestClear = false, DestCToCR = false;
  uint8_t FidelityIncr = 0;  // 2 bits
  bool FidelityClear = false;
};
struct AddrModBias {
  uint8_t BiasIncr = 0;  // 4 bits
  bool BiasClear = false;
};

// One ADDR_MOD_PACK_SEC slot: how PACR moves the packer ADC's Y and Z counters
// (Packers/InputAddressGenerator.md: Ysrc/Zsrc, channel 0; OutputAddressGenerator.md: Ydst/Zdst,
// channel 1).
inline constexpr unsigned kNumPackAddrMods = 4;
struct AddrModPack {
  uint8_t YsrcIncr = 0;  // 4 bits
  bool YsrcCR = false, YsrcClear = false;
  uint8_t ZsrcIncr = 0;  // 1 bit
  bool ZsrcClear = false;
  uint8_t YdstIncr = 0;  // 4 bits
  bool YdstCR = false, YdstClear = false;
  uint8_t ZdstIncr = 0;  // 1 bit
  bool ZdstClear = false;
};

// The per-thread configuration fields the Matrix Unit reads.
struct ThreadConfigRegs {
  uint8_t CFG_STATE_ID_StateID = 0;
  uint16_t DEST_TARGET_REG_CFG_MATH_Offset = 0;  // 12 bits
  bool ADDR_MOD_SET_Base = false;                // Wormhole only (removed on Blackhole)
  bool DISABLE_IMPLIED_SRCA_FMT_Base = false;    // Blackhole only
  bool DISABLE_IMPLIED_SRCB_FMT_Base = false;    // Blackhole only
  bool CLR_DVALID_SrcA_Disable = false;
  bool CLR_DVALID_SrcB_Disable = false;
  uint8_t FIDELITY_BASE_Phase = 0;  // 2 bits
  bool FP16A_FORCE_Enable = false;
  std::array<AddrModAB, kNumAddrMods> ADDR_MOD_AB_SEC{};
  std::array<AddrModDst, kNumAddrMods> ADDR_MOD_DST_SEC{};
  std::array<AddrModBias, kNumAddrMods> ADDR_MOD_BIAS_SEC{};
  // Where UNPACR's next rows go in SrcA / SrcB after a FlipSrc (SrcRowBase = Base << 4).
  uint8_t SRCA_SET_Base = 0;  // 2 bits
  uint8_t SRCB_SET_Base = 0;  // 2 bits
  bool SRCA_SET_SetOvrdWithAddr = false;
  std::array<AddrModPack, kNumPackAddrMods> ADDR_MOD_PACK_SEC{};
};

// Config[StateID] fields of one unpacker, THCON_SEC0_* (unpacker 0, SrcA or Dst) and THCON_SEC1_*
// (unpacker 1, SrcB), and UNP0_* / UNP1_*, named as UNPACR_Regular.md names them; the tile
// descriptor's parts carry its name as a prefix. Only what tmu models is here: every other mode
// field reads as 0 (docs/l1-formats.md lists them).
struct UnpackerConfig {
  uint8_t REG0_TileDescriptor_InDataFormat = 0;  // 4-bit format code
  bool REG0_TileDescriptor_IsUncompressed = false;
  bool REG0_TileDescriptor_NoBFPExpSection = false;
  uint16_t REG0_TileDescriptor_XDim = 0;
  uint16_t REG0_TileDescriptor_YDim = 0;  // 8 bits used
  uint16_t REG0_TileDescriptor_ZDim = 0;  // 8 bits; 0 means 1
  uint16_t REG0_TileDescriptor_WDim = 0;  // 8 bits; 0 means 1
  uint8_t REG0_TileDescriptor_DigestSize = 0;
  uint8_t REG1_Unp_LF8_4b_exp = 0;        // FP8 data as S1E4M3 (Blackhole)
  uint8_t REG2_Out_data_format = 0;
  bool REG2_Force_shared_exp = false;
  bool REG2_Tileize_mode = false;
  bool REG2_Haloize_mode = false;
  bool REG2_Unpack_If_Sel = false;        // unpacker 0: to Dst instead of SrcA
  bool REG2_Unpack_if_sel_cntx0 = false;  // ... in MultiContextMode, context 0
  bool REG2_Disable_zero_compress_cntx0 = false;
  bool REG2_Ovrd_data_format = false;
  uint8_t REG2_Shift_amount_cntx0 = 0;    // 4 bits: ColShift
  bool Unpack_Src_Reg_Set_Upd = false;
  uint32_t REG3_Base_address = 0;         // 16-byte units
  uint32_t REG7_Offset_address = 0;       // 16-byte units, low 16 bits used
  uint16_t REG5_Tile_x_dim_cntx0 = 0;     // unpacker 0, MultiContextMode
  uint32_t REG5_Dest_cntx0_address = 0;   // unpacker 0, MultiContextMode
  uint32_t ADDR_BASE_REG_1_Base = 0;      // UNPn_: output address (bytes)
  uint32_t ADDR_CTRL_XY_REG_1_Ystride = 0;
  uint32_t ADDR_CTRL_ZW_REG_1_Zstride = 0;
  uint32_t ADDR_CTRL_ZW_REG_1_Wstride = 0;
  bool ADD_DEST_ADDR_CNTR_add_dest_addr_cntr = false;
};

// Config[StateID] fields of packer 0 (THCON_SEC0_REG1_*, PCK_DEST_RD_CTRL_*, PCK0_ADDR_*), named as
// the Packers/ pages and ttsim name them. Blackhole has this one packer; a Wormhole PACR naming
// another packer is refused.
struct PackerConfig {
  uint8_t THCON_SEC0_REG1_In_data_format = 0;
  uint8_t THCON_SEC0_REG1_Out_data_format = 0;
  uint32_t THCON_SEC0_REG1_L1_Dest_addr = 0;     // 16-byte units; the output starts at (this + 1) * 16
  uint16_t THCON_SEC0_REG1_Exp_section_size = 0; // 16-byte units before the data of an 8-bit-or-less format
  bool THCON_SEC0_REG1_Pack_L1_Acc = false;
  bool THCON_SEC0_REG1_Exp_threshold_en = false;
  uint8_t THCON_SEC0_REG1_Exp_threshold = 0;
  bool THCON_SEC0_REG1_Sub_l1_tile_header_size = false;
  bool THCON_SEC0_REG1_Pac_LF8_4b_exp = false;
  bool PCK_DEST_RD_CTRL_Read_32b_data = false;
  bool PCK_DEST_RD_CTRL_Round_10b_mant = false;
  bool PCK_DEST_RD_CTRL_Read_unsigned = false;
  bool PCK_DEST_RD_CTRL_Read_int8 = false;
  uint32_t PCK0_ADDR_BASE_REG_0_Base = 0;
  uint32_t PCK0_ADDR_CTRL_XY_REG_0_Xstride = 0;
  uint32_t PCK0_ADDR_CTRL_XY_REG_0_Ystride = 0;
  uint32_t PCK0_ADDR_CTRL_ZW_REG_0_Zstride = 0;
  uint32_t PCK0_ADDR_CTRL_ZW_REG_0_Wstride = 0;
  uint32_t PCK0_ADDR_BASE_REG_1_Base = 0;
  uint32_t PCK0_ADDR_CTRL_XY_REG_1_Ystride = 0;
  uint32_t PCK0_ADDR_CTRL_ZW_REG_1_Zstride = 0;
  uint32_t PCK0_ADDR_CTRL_ZW_REG_1_Wstride = 0;
  uint16_t DEST_TARGET_REG_CFG_PACK_SEC0_Offset = 0;  // Dst rows
  bool ALU_ROUNDING_MODE_Packer_srnd_en = false;
  uint8_t STACC_RELU_ApplyRelu = 0;
};

// Config[StateID]: the thread-agnostic configuration the Matrix Unit reads.
struct ConfigRegs {
  uint8_t ALU_FORMAT_SPEC_REG_SrcA_val = 0;
  bool ALU_FORMAT_SPEC_REG_SrcA_override = false;
  uint8_t ALU_FORMAT_SPEC_REG_SrcB_val = 0;
  bool ALU_FORMAT_SPEC_REG_SrcB_override = false;
  uint8_t ALU_FORMAT_SPEC_REG_Dstacc_val = 0;
  bool ALU_FORMAT_SPEC_REG_Dstacc_override = false;
  uint8_t ALU_FORMAT_SPEC_REG0_SrcA = 0;
  uint8_t ALU_FORMAT_SPEC_REG1_SrcB = 0;
  uint8_t ALU_FORMAT_SPEC_REG2_Dstacc = 0;
  bool ALU_ACC_CTRL_Fp32_enabled = false;
  bool ALU_ACC_CTRL_SFPU_Fp32_enabled = false;
  bool ALU_ACC_CTRL_INT8_math_enabled = false;
  bool ALU_ACC_CTRL_Zero_Flag_disabled_src = false;
  bool ALU_ACC_CTRL_Zero_Flag_disabled_dst = false;
  uint16_t DEST_REGW_BASE_Base = 0;
  std::array<UnpackerConfig, 2> THCON_SEC{};  // [0]: THCON_SEC0_* and UNP0_*, [1]: THCON_SEC1_* and UNP1_*
  PackerConfig Packer{};
};

struct MatrixUnitState {
  uint8_t SrcABank = 0;
  uint8_t SrcBBank = 0;
  // SHIFTXA cannot name its input rows: hardware uses the SrcA row address that the most recent
  // SrcA-addressing Matrix Unit instruction computed (SHIFTXA.md, a NonContractualBehaviour).
  uint8_t LastSrcARow = 0;
};

struct UnpackerState {
  uint8_t SrcBank = 0;
  std::array<uint8_t, kNumThreads> SrcRow{};  // 6 bits: where the next UNPACR writes, per thread
};

// Packer 0's output streams (Packers/OutputAddressGenerator.md): a PACR after Last or Flush (or the
// first) takes new byte addresses from the configuration; otherwise it appends.
struct PackerState {
  bool NeedsNewAddress = true;
  uint32_t DataByteAddress = 0;
  uint32_t ExponentByteAddress = 0;
};

// The address counters (ADCs.md): per thread, two channels for each unpacker and for the packers.
// Channel 0 addresses the input (L1 for the unpackers, Dst for the packers), channel 1 the output.
struct AdcChannel {
  uint32_t X = 0, X_Cr = 0, Y = 0, Y_Cr = 0, Z = 0, Z_Cr = 0, W = 0, W_Cr = 0;  // 18, 13, 8, 8 bits
};
struct Adc {
  std::array<AdcChannel, 2> Channel{};
};
struct AdcSet {
  std::array<Adc, 2> Unpacker{};
  Adc Packers{};
};

// L1 as the unpackers and packers see it: ttsim's TENSIX_SRAM_SIZE (src/config.h), 1464 KiB on
// Wormhole (also UNPACR_Regular.md's ReadL1Bytes bound) and 1536 KiB on Blackhole.
inline constexpr uint32_t l1_size(Arch arch) { return (arch == Arch::Wormhole ? 1464u : 1536u) * 1024u; }

struct TensixState {
  Arch arch = Arch::Blackhole;
  std::array<SrcBank, kSrcBanks> SrcA{};
  std::array<SrcBank, kSrcBanks> SrcB{};
  DstRegs Dst{};
  std::array<Rwc, kNumThreads> RWCs{};
  std::array<ThreadConfigRegs, kNumThreads> ThreadConfig{};
  std::array<ConfigRegs, kNumConfigStates> Config{};
  MatrixUnitState MatrixUnit{};
  std::array<UnpackerState, 2> Unpackers{};  // [0] writes SrcA, [1] writes SrcB
  std::array<std::array<uint32_t, kNumGprs>, kNumThreads> GPRs{};
  std::array<AdcSet, kNumThreads> ADCs{};
  PackerState Packer{};
  // L1 bytes, allocated at the first write (l1_size(arch) bytes); empty reads as zeros, so a state
  // that never touches L1 costs nothing to make or copy.
  std::vector<uint8_t> L1;
  // RISCV_DEBUG_REG_DBG_FEATURE_DISABLE bit 11: Dst16b accesses go to the high half of Dst32b.
  bool DbgFeatureDisableBit11 = false;
  // Blackhole DEST_ACCESS_CFG: when clear, ZEROACC's 16-row mode is relative to the Dst half that
  // DEST_TARGET_REG_CFG_MATH_Offset + RWC.Dst points into (ttsim; not in the Wormhole ISA).
  bool DEST_ACCESS_CFG_zeroacc_absolute_tile_mode = false;

  ConfigRegs& config_for(unsigned thread) { return Config[ThreadConfig[thread].CFG_STATE_ID_StateID & 1]; }
  const ConfigRegs& config_for(unsigned thread) const {
    return Config[ThreadConfig[thread].CFG_STATE_ID_StateID & 1];
  }
};

}  // namespace tmu::tensix
