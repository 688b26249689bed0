# ctest cosim.merge_cov: `tmu_tb --merge-cov OUT IN...`, the one coverage merge, on two small files
# written here (expected sums worked out by hand), and its errors on bad input.
# Usage: cmake -DTB=<tmu_tb> -DWORK=<scratch dir> -P merge_cov.cmake
file(MAKE_DIRECTORY ${WORK})
file(WRITE ${WORK}/a.json [=[
{"coverpoints": {"zz_merge_a": {"description": "only in the files", "bins": {"x": 3, "y": 0}},
                 "events": {"bins": {"dst_hazard_stall": 2}}},
 "samples": 2, "illegal": {"zz_merge_a/w": 1}}
]=])
file(WRITE ${WORK}/b.json [=[
{"coverpoints": {"zz_merge_a": {"bins": {"x": 4, "z": 1}},
                 "events": {"bins": {"dst_hazard_stall": 5, "zz_new_event": 1}}},
 "samples": 5, "illegal": {"zz_merge_a/w": 2}}
]=])

# The CLI tests' helpers run ${TMU}: here that is the testbench.
include(${CMAKE_CURRENT_LIST_DIR}/../cli/lib/expect.cmake)
set(TMU ${TB})
function(expect_json path want)
  string(JSON got GET "${merged}" ${path})
  if(NOT "${got}" STREQUAL "${want}")
    message(FATAL_ERROR "merged ${path}: got '${got}', want '${want}'")
  endif()
endfunction()

tmu_expect(0 --merge-cov ${WORK}/m.json ${WORK}/a.json ${WORK}/b.json)
file(READ ${WORK}/m.json merged)
expect_json("coverpoints;zz_merge_a;bins;x" 7)   # 3 + 4
expect_json("coverpoints;zz_merge_a;bins;y" 0)
expect_json("coverpoints;zz_merge_a;bins;z" 1)   # only in b
expect_json("coverpoints;zz_merge_a;description" "only in the files")
expect_json("coverpoints;events;bins;dst_hazard_stall" 7)
expect_json("coverpoints;events;bins;zz_new_event" 1)
expect_json("samples" 7)
expect_json("illegal;zz_merge_a/w" 3)
# The merge of a file with itself doubles every count.
tmu_expect(0 --merge-cov ${WORK}/mm.json ${WORK}/m.json ${WORK}/m.json)
file(READ ${WORK}/mm.json merged)
expect_json("coverpoints;zz_merge_a;bins;x" 14)
expect_json("samples" 14)

# Bad input: exit 2 and the file named.
tmu_expect(2 --merge-cov ${WORK}/bad.json ${WORK}/missing.json)
expect_contains("the error names the missing file" "${err}" "missing.json")
file(WRITE ${WORK}/broken.json "{\"coverpoints\": ")
tmu_expect(2 --merge-cov ${WORK}/bad.json ${WORK}/broken.json)
tmu_expect(2 --merge-cov ${WORK}/only-out.json)
message("tmu_tb --merge-cov: sums, new bins and coverpoints, errors as expected")
