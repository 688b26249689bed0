// tmu RTL file list, packages first (each file holds one package or one module).
rtl/tmu_pkg.sv
rtl/tmu_isa_pkg.sv
rtl/tmu_shift_round.sv
rtl/tmu_fidelity_slice.sv
rtl/tmu_align_group_sum.sv
