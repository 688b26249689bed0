// tmu RTL file list, packages first (each file holds one package or one module).
rtl/tmu_pkg.sv
rtl/tmu_isa_pkg.sv
rtl/tmu_shift_round.sv
rtl/tmu_dst_to_acc.sv
rtl/tmu_acc_to_dst.sv
rtl/tmu_fidelity_slice.sv
rtl/tmu_align_product.sv
rtl/tmu_align_group_sum.sv
rtl/tmu_accum_normalize.sv
rtl/tmu_gpr_unit.sv
rtl/tmu_rwc.sv
rtl/tmu_src_regs.sv
rtl/tmu_dst_regs.sv
rtl/tmu_mac_element.sv
rtl/tmu_mac_array.sv
