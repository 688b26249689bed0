"""tmu.pto: hand-derived results, the engine's predicate packing, the A2/A3 cycle estimate worked
from docs/pto-cycles.md, refusals, and every vector of `tmu --engine pto vectors` replayed through
Python against its expect lanes."""

import pathlib
import subprocess

import numpy as np
import pytest

import tmu
from tmu import pto

F32 = np.float32


def test_tadd_f32_by_hand():
    a = np.full((1, 8), 1.5, F32)
    b = np.full((1, 8), 2.25, F32)
    out = pto.execute("TADD", np.zeros((1, 8), F32), [a, b])
    assert out.dtype == F32 and out.shape == (1, 8)
    assert (out == 3.75).all()


def test_bf16_travels_as_uint16_bit_patterns():
    a = pto.Tile(np.full((1, 16), 0x3FC0, np.uint16), type="bf16")  # 1.5
    out = pto.execute("tadd", pto.Tile(np.zeros((1, 16), np.uint16), type="bf16"), [a, a])
    assert out.dtype == np.uint16 and (out == 0x4040).all()           # 3.0: exponent 128, fraction 1000000b


def test_valid_region_leaves_the_other_lanes_alone():
    dst = np.full((2, 8), 7.0, F32)
    a = pto.Tile(np.ones((2, 8), F32), valid=(1, 3))
    d = pto.Tile(dst, valid=(1, 3))
    out = pto.execute("TADD", d, [a, a])
    assert list(out[0]) == [2, 2, 2, 7, 7, 7, 7, 7] and (out[1] == 7).all()
    assert (dst == 7).all()  # the argument is not modified


def test_col_major_layout_gives_the_same_lanes():
    a = np.arange(64, dtype=F32).reshape(8, 8)
    out = pto.execute("TMUL", pto.Tile(np.zeros((8, 8), F32), layout="col_major"),
                      [pto.Tile(a, layout="col_major"), pto.Tile(a, layout="col_major")])
    assert np.array_equal(out, a * a)


def test_tcmp_and_tsel_as_the_readme_works_them():
    # README "PTO elementwise tile operations": lanes 0, 5, 7, 9 and 13 of row 0 are less.
    a = np.array([[1, -2, 3.5, -0.0, np.inf, -np.inf, 2.0**-149, 7, 8, 9, 10, 11, -1, -1, 0.5, 100],
                  [1] * 16], dtype=F32)
    b = np.array([[2, -3, 3.5, 0, 1, -5, 0, 8, 7, 9.5, -10, np.nan, -1, 1, 0.25, -100],
                  [2] * 16], dtype=F32)
    p = pto.execute("TCMP", pto.Tile(np.zeros((2, 32), np.uint8), valid=(2, 2)), [a, b], cmp="LT")
    assert [hex(v) for v in p[0, :3]] == ["0xa1", "0x22", "0x0"]   # bits 0,5,7 | 9,13 -> 1,5
    assert list(p[1, :2]) == [0xFF, 0xFF]
    m = pto.execute("TSEL", np.zeros((2, 16), F32), [pto.Tile(p, valid=(2, 2)), a, b])
    expect = [1, -3, 3.5, 0, 1, -np.inf, 0, 7, 7, 9, -10, np.nan, -1, -1, 0.25, -100]
    assert np.array_equal(m[0], np.array(expect, F32), equal_nan=True)
    assert (m[1] == 1).all()


def test_a2a3_cycle_estimate_of_a_small_tadd_by_hand():
    # docs/pto-cycles.md: 8 f32 columns < 64 lanes per repeat, 1 row -> step 1: a mask (1), one vadd
    # of one repeat (head 10 + slope 2 x 1), the full mask again (1): 14.
    a = np.ones((1, 8), F32)
    est = pto.a2a3_cycles("TADD", np.zeros((1, 8), F32), [a, a])
    assert est["cycles"] == 14
    assert est["steps"] == [("set_vector_mask", 0, 1), ("vadd", 1, 12), ("set_vector_mask", 0, 1)]


def test_profiles_differ_where_the_model_says_so():
    assert pto.types() == ["f32", "f16", "bf16", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64",
                           "f8e4m3", "f8e5m2"]
    a = np.ones((1, 8), F32)
    assert (pto.execute("TADD", np.zeros((1, 8), F32), [a, a], variant="a2a3") == 2).all()


# ---- refusals ----

def test_shift_by_the_width_is_undefined_behaviour():
    a = np.ones((1, 8), np.int32)
    n = np.full((1, 8), 32, np.int32)
    with pytest.raises(tmu.UndefinedBehaviour, match=r"TSHL"):
        pto.execute("TSHL", np.zeros((1, 8), np.int32), [a, n])


def test_boxed_layout_is_unsupported_and_a_short_row_is_bad_input():
    a = np.ones((1, 8), F32)
    with pytest.raises(tmu.Unsupported, match=r"layout nz: boxed layouts .* are not modelled"):
        pto.execute("TADD", pto.Tile(np.zeros((1, 8), F32), layout="nz"), [a, a])
    with pytest.raises(tmu.BadInput, match=r"32"):
        short = np.ones((1, 4), F32)  # 16 bytes a row: pto_tile.hpp wants multiples of 32
        pto.execute("TADD", np.zeros((1, 4), F32), [short, short])


def test_wrong_arguments_name_the_argument():
    a = np.ones((1, 8), F32)
    with pytest.raises(ValueError, match=r"tmu.pto.execute: op: unknown operation 'TADDD' \(did you mean 'TADD'\?\)"):
        pto.execute("TADDD", a, [a, a])
    with pytest.raises(ValueError, match=r"tmu.pto.execute: variant: unknown profile 'gpu'"):
        pto.execute("TADD", a, [a, a], variant="gpu")
    with pytest.raises(ValueError, match=r"tmu.pto.execute: cmp: unknown compare mode 'LESS'"):
        pto.execute("TCMP", np.zeros((1, 32), np.uint8), [a, a], cmp="LESS")
    with pytest.raises(TypeError, match=r"tmu.pto.execute: srcs\[1\]: no PTO element type has dtype float64"):
        pto.execute("TADD", a, [a, np.ones((1, 8))])
    with pytest.raises(ValueError, match=r"tmu.pto.execute: dst: expected a 2-D array \(rows, cols\), got 1 dimensions"):
        pto.execute("TADD", np.zeros(8, F32), [a, a])
    with pytest.raises(TypeError, match=r"tmu.pto.execute: srcs\[0\]: element type bf16 takes dtype uint16"):
        pto.execute("TADD", a, [pto.Tile(a, type="bf16"), a])
    with pytest.raises(ValueError, match=r"srcs\[0\].type: unknown element type 'f8'"):
        pto.execute("TADD", a, [pto.Tile(a, type="f8"), a])
    with pytest.raises(TypeError, match=r"tmu.pto.execute: srcs\[0\]: expected a 2-D numpy array or a tmu.pto.Tile, got list"):
        pto.execute("TADD", a, [[1.0] * 8, a])


def test_mismatched_source_count_is_a_model_refusal():
    a = np.ones((1, 8), F32)
    with pytest.raises(tmu.BadInput):
        pto.execute("TADD", a, [a])


# ---- the vector corpus, replayed through Python ----

def parse_tile(words):
    """'TYPE RxC LAYOUT valid=VRxVC P...' -> (Tile of unsigned bit patterns, width)."""
    typ, shape, layout, valid = words[:4]
    rows, cols = map(int, shape.split("x"))
    vr, vc = map(int, valid[len("valid="):].split("x"))
    width = {"8": np.uint8, "16": np.uint16, "32": np.uint32, "64": np.uint64}[
        {"f32": "32", "f16": "16", "bf16": "16", "i8": "8", "u8": "8", "i16": "16", "u16": "16",
         "i32": "32", "u32": "32", "i64": "64", "u64": "64", "f8e4m3": "8", "f8e5m2": "8"}[typ]]
    mem = np.array([int(w, 16) for w in words[4:]], dtype=np.uint64).astype(width)
    data = mem.reshape(rows, cols) if layout == "row_major" else mem.reshape(cols, rows).T
    return pto.Tile(np.ascontiguousarray(data), type=typ, layout=layout, valid=(vr, vc)), layout


def replay_file(path):
    text = pathlib.Path(path).read_text().splitlines()
    profile = next(line.split()[1] for line in text if line.startswith("arch "))
    count = failed = 0
    vec = None
    for line in text:
        words = line.split("#")[0].split()
        if not words:
            continue
        if words[0] == "vector":
            vec = {"name": words[1], "srcs": {}, "params": {}}
        elif words[0] == "op":
            vec["op"] = words[1]
            for p in words[2:]:
                k, v = p.split("=")
                vec["params"][{"cmp": "cmp", "round": "round", "sat": "saturation"}[k]] = v
        elif words[0] == "src":
            vec["srcs"][int(words[1])] = parse_tile(words[2:])[0]
        elif words[0] == "dst":
            vec["dst"], vec["layout"] = parse_tile(words[1:])
        elif words[0] == "expect":
            vec["expect"] = words[1:]
        elif words[0] == "end":
            srcs = [vec["srcs"][k] for k in sorted(vec["srcs"])]
            out = pto.execute(vec["op"], vec["dst"], srcs, variant=profile, **vec["params"])
            mem = out if vec["layout"] == "row_major" else out.T
            got = [format(int(v), "x").zfill(len(vec["expect"][0])) for v in mem.reshape(-1)]
            count += 1
            if got != vec["expect"]:
                failed += 1
    return count, failed


@pytest.fixture(scope="module")
def pto_vectors(tmp_path_factory, tmu_exe):
    out = tmp_path_factory.mktemp("pto_vectors")
    subprocess.run([tmu_exe, "--engine", "pto", "vectors", "-o", str(out)], check=True, capture_output=True)
    subprocess.run([tmu_exe, "--engine", "pto", "vectors", "-o", str(out / "random"), "--level", "2", "-n", "2",
                    "--seed", "7"], check=True, capture_output=True)
    return sorted(out.glob("**/*.tmv"))


def test_every_pto_vector_replayed_through_python_matches_its_expect_lanes(pto_vectors):
    assert len(pto_vectors) >= 20
    total = 0
    for path in pto_vectors:
        count, failed = replay_file(path)
        assert failed == 0, f"{path.name}: {failed} of {count} vectors differ"
        total += count
    assert total > 1272  # level 1's 1272 vectors and the random ones
