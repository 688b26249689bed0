// One function per instruction (or per family where the ISA gives them one functional model).
// exec.cpp maps each Op to its handler; grep a mnemonic in lower case to find its implementation.
#pragma once

#include "context.h"

namespace tmu::tensix::insn {

// Matrix multiply family (mvmul.cpp)
void exec_mvmul(ExecContext&);
void exec_dotpv(ExecContext&);
void exec_gapool(ExecContext&);
// Element-wise (elw.cpp)
void exec_elwmul(ExecContext&);
void exec_elwadd(ExecContext&);
void exec_elwsub(ExecContext&);
// Column max-pool (gmpool.cpp)
void exec_gmpool(ExecContext&);
// Data movement (mov.cpp)
void exec_mova2d(ExecContext&);
void exec_movb2d(ExecContext&);
void exec_movd2a(ExecContext&);
void exec_movd2b(ExecContext&);
void exec_movb2a(ExecContext&);
// Lane shifts (shift.cpp)
void exec_shiftxa(ExecContext&);
void exec_shiftxb(ExecContext&);
// Dst and Src housekeeping (zeroacc.cpp, src_banks.cpp, rwc.cpp, legacy.cpp)
void exec_zeroacc(ExecContext&);
void exec_zerosrc(ExecContext&);
void exec_trnspsrcb(ExecContext&);
void exec_cleardvalid(ExecContext&);
void exec_setrwc(ExecContext&);
void exec_incrwc(ExecContext&);
void exec_legacy_neutered(ExecContext&);
void exec_gatesrcrst(ExecContext&);
void exec_clrexphist(ExecContext&);
// Scalar Unit GPR ops (gpr.cpp)
void exec_setdmareg(ExecContext&);
void exec_adddmareg(ExecContext&);
void exec_subdmareg(ExecContext&);
void exec_muldmareg(ExecContext&);
void exec_shiftdmareg(ExecContext&);
void exec_bitwopdmareg(ExecContext&);
void exec_cmpdmareg(ExecContext&);
void exec_flushdma(ExecContext&);
void exec_dmanop(ExecContext&);
// L1 <-> registers through the unpackers and the packer (unpacr.cpp, pacr.cpp)
void exec_unpacr(ExecContext&);
void exec_pacr(ExecContext&);

}  // namespace tmu::tensix::insn
