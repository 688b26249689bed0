# The options every subcommand shares: --version, --arch after the subcommand, the primary spellings
# and their aliases (-o/--out/--output, --format/--formats, --family/--ops, --fidelity/--phase with
# lofi..hifi4 or 0..3), and clear errors with exit status 2. Expected outputs are worked out by hand.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

include(${CMAKE_CURRENT_LIST_DIR}/lib/expect.cmake)

# --version: the project version of the top-level CMakeLists.txt.
file(STRINGS ${SRC}/CMakeLists.txt project_line REGEX "^project\\(tmu VERSION")
string(REGEX REPLACE ".*VERSION ([0-9.]+).*" "\\1" version "${project_line}")
tmu_expect(0 --version)
expect_equal("tmu --version" "${out}" "tmu ${version}\n")

# --arch after the subcommand. MVMUL 0x26008000 sets word bit 15 only: Blackhole's AddrMod is bits
# 16:14, so AddrMod = 0b010 = 2; Wormhole's is bits 16:15, so AddrMod = 0b01 = 1.
tmu_expect(0 dis 0x26008000)
expect_equal("dis on blackhole" "${out}" "26008000  MVMUL DstRow=0 AddrMod=2 BroadcastSrcBRow=0 FlipSrcA=0 FlipSrcB=0\n")
set(wormhole "26008000  MVMUL DstRow=0 AddrMod=1 BroadcastSrcBRow=0 FlipSrcA=0 FlipSrcB=0\n")
tmu_expect(0 --arch wormhole dis 0x26008000)
expect_equal("--arch before dis" "${out}" "${wormhole}")
tmu_expect(0 dis --arch wormhole 0x26008000)
expect_equal("--arch after dis" "${out}" "${wormhole}")
tmu_expect(0 asm --arch wormhole "MVMUL AddrMod=1")
expect_equal("--arch after asm" "${out}" "0x26008000\n")
tmu_expect(2 dis --arch grayskull 0x26008000)
expect_contains("unknown --arch" "${err}" "unknown tensix variant 'grayskull' (blackhole, wormhole)")

# --phase is a phase index: 2 (or hifi3, the level whose last phase is 2) picks the phase-2 files.
set(phase2 "mvmul/mvmul-bf16-p2-d32.tmv\nmvmul/mvmul-bf16-p2-d32-bcastrow.tmv\n")
foreach(spelling "--phase;2" "--phase;hifi3")
  tmu_expect(0 vectors --list --family mvmul --format bf16 --dst 32 ${spelling})
  expect_equal("vectors ${spelling}" "${out}" "${phase2}")
endforeach()
# --fidelity is a level: HiFi3 (any case; 2, the level ending at phase 2) runs phases 0, 1 and 2.
foreach(spelling "--fidelity;HiFi3" "--fidelity;2")
  tmu_expect(0 vectors --list --family mvmul --format bf16 --dst 32 ${spelling})
  foreach(p 0 1 2)
    expect_contains("vectors ${spelling}: phase ${p}" "${out}" "mvmul/mvmul-bf16-p${p}-d32")
  endforeach()
  string(FIND "${out}" "-p3-" p3)
  if(NOT p3 EQUAL -1)
    message(FATAL_ERROR "vectors ${spelling} listed a phase-3 file:\n${out}")
  endif()
endforeach()
tmu_expect(0 vectors --list --ops mvmul --formats bf16 --dst 32 --phase 2)
expect_equal("vectors --ops/--formats aliases" "${out}" "${phase2}")
tmu_expect(2 vectors --list --fidelity 4)
expect_contains("vectors --fidelity 4" "${err}" "'4' is not a fidelity: lofi|hifi2|hifi3|hifi4")
tmu_expect(2 vectors --list --phase hifi1)
expect_contains("vectors --phase hifi1" "${err}" "--phase: 'hifi1' is not a phase: 0..3")

# -o, --out and --output name the same directory.
foreach(name -o --out --output)
  tmu_expect(0 vectors --family gpr ${name} ${WORK}/vec${name} -q)
  if(NOT EXISTS ${WORK}/vec${name}/MANIFEST)
    message(FATAL_ERROR "tmu vectors ${name} DIR wrote no DIR/MANIFEST")
  endif()
endforeach()

# audit: --phase LoFi,1 is LoFi and HiFi2, so phases.csv has 1 + 2 passes; names in any case.
tmu_expect(0 audit --output ${WORK}/audit --samples 1 --k 1 --formats BF16 --dists Uniform --ops MVMUL
           --phase LoFi,1 --dst 32 --elw-tiles 1 --quiet --seed 3)
file(STRINGS ${WORK}/audit/phases.csv rows)
list(LENGTH rows count)
expect_equal("phases.csv lines (header + 3 passes)" "${count}" "4")
foreach(row 1 2 3)
  list(GET rows ${row} line)
  string(REPLACE "," ";" line "${line}")
  list(GET line 3 fidelity)
  list(APPEND fidelities ${fidelity})
endforeach()
expect_equal("phases.csv fidelities" "${fidelities}" "LoFi;HiFi2;HiFi2")
tmu_expect(2 audit -o ${WORK}/bad --fidelity hifi4,4)
expect_contains("audit --fidelity 4" "${err}" "'4' is not a fidelity")
tmu_expect(2 audit -o ${WORK}/bad --ops conv)
expect_contains("audit --ops conv" "${err}" "conv not in {mvmul,elwmul}")
tmu_expect(2 audit -o ${WORK}/bad --formats BF17)
expect_contains("audit --formats BF17" "${err}" "BF17 not in {bf16,fp16,tf32}")
tmu_expect(2 audit -o ${WORK}/bad --dst 24)
expect_contains("audit --dst 24" "${err}" "24 not in {16,32}")

# --help names the primary spelling with its aliases.
tmu_expect(0 vectors --help)
foreach(names "-o,--out,--output" "--family,--ops" "--format,--formats" "--fidelity" "--phase" "--arch" "--variant")
  expect_contains("vectors --help" "${out}" "${names}")
endforeach()
tmu_expect(0 audit --help)
foreach(names "-o,--out,--output" "--family,--ops" "--format,--formats" "--fidelity" "--phase" "--arch" "--engines"
        "--amx-modes")
  expect_contains("audit --help" "${out}" "${names}")
endforeach()

# An option one edit away from a real one is named, on the app and on a subcommand.
tmu_expect(2 vectors --famly mvmul --list)
expect_contains("vectors --famly" "${err}" "tmu vectors: unknown option --famly (did you mean '--family'?)")
tmu_expect(2 --enigne amx dis 0)
expect_contains("--enigne" "${err}" "unknown option --enigne (did you mean '--engine'?)")
