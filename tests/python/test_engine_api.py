"""tmu.engine(name, variant): every engine of the registry through the generic API, each result
checked against an independent route: the `tmu` command line run as a subprocess (dis, asm, isa,
run, vectors, check) and, for the scoreboards, the hand-written modules' models (tmu.amx.State,
tmu.pto.execute). Then the refusals, and the deprecated keywords of the per-engine modules."""

import json
import pathlib
import re
import subprocess
import warnings

import numpy as np
import pytest

import tmu

ENGINES = [e["name"] for e in tmu.engines()]
# Lines of assembly per engine with instruction words (docs/program-format.md); an engine without
# words is checked to refuse them, as `tmu dis` refuses them.
ASSEMBLY = {
    "tensix": ["ZEROACC Mode=3 AddrMod=1", "MVMUL DstRow=4 AddrMod=2", "SETDMAREG ResultHalfReg=4 NewValue=4660"],
    "amx": ["matfp f32 z+=x*y x=0x40 y=0x80", "matfp f16 z-=x*y zrow=1 xen=1:5 yen=3:2"],
}


def cli(exe, *args, check=True):
    p = subprocess.run([exe, *map(str, args)], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"tmu {' '.join(map(str, args))}: exit {p.returncode}: {p.stderr}")
    return p


def tree(root):
    root = pathlib.Path(root)
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


# ---- The registry ----

@pytest.mark.parametrize("name", ENGINES)
def test_every_engine_has_the_registry_entry_and_takes_each_variant_in_any_case(name):
    listed = next(e for e in tmu.engines() if e["name"] == name)
    e = tmu.engine(name)
    assert (e.name, e.summary, e.variants) == (name, listed["summary"], listed["variants"])
    assert e.variant == listed["variants"][0]
    for v in listed["variants"]:
        assert tmu.engine(name, v.swapcase()).variant == v
        assert tmu.engine(name, variant=v) == tmu.engine(name, v)
    assert repr(e) == f"tmu.engine('{name}', variant='{e.variant}')"


# ---- Words: tmu dis / asm / isa ----

@pytest.mark.parametrize("name", ENGINES)
def test_isa_is_what_tmu_isa_prints_or_the_same_refusal(tmu_exe, name):
    for variant in tmu.engine(name).variants:
        p = cli(tmu_exe, "--engine", name, "--variant", variant, "isa", check=False)
        e = tmu.engine(name, variant)
        if p.returncode == 0:
            assert e.isa() == p.stdout.splitlines()
        else:
            assert "has no instruction table" in p.stderr
            with pytest.raises(tmu.BadInput, match=rf"^the {name} engine has no instruction table"):
                e.isa()


@pytest.mark.parametrize("name", ENGINES)
def test_words_are_those_of_tmu_asm_and_tmu_dis(tmu_exe, name):
    e = tmu.engine(name)
    refused = cli(tmu_exe, "--engine", name, "dis", "0x10184000", check=False)
    if "it has no instruction words" in refused.stderr:
        assert name not in ASSEMBLY
        with pytest.raises(tmu.BadInput, match=rf"^the {name} engine has no instruction words to disassemble$"):
            e.disassemble(0x10184000)
        with pytest.raises(tmu.BadInput, match=rf"^the {name} engine has no instruction words to assemble$"):
            e.assemble("TADD c a b")
        return
    for variant in e.variants:
        ev = tmu.engine(name, variant)
        for line in ASSEMBLY[name]:
            word = int(cli(tmu_exe, "--engine", name, "--variant", variant, "asm", line).stdout, 16)
            assert ev.assemble(line) == word
            shown = cli(tmu_exe, "--engine", name, "--variant", variant, "dis", hex(word)).stdout.strip()
            assert ev.disassemble(word) == shown == ev.disassemble(hex(word))


def test_word_options_are_those_of_tmu_dis(tmu_exe):
    # --rotated: Tensix words as kernel binaries embed them (rotated left by 2).
    rotated = tmu.engine("tensix").assemble("ZEROACC Mode=3", options={"rotated": True})
    assert rotated == int(cli(tmu_exe, "asm", "--rotated", "ZEROACC Mode=3").stdout, 16)
    assert tmu.engine("tensix").disassemble(rotated, {"rotated": True}) == \
        cli(tmu_exe, "dis", "--rotated", hex(rotated)).stdout.strip()


# ---- Programs: tmu run ----

def programs(source_dir):
    """(engine, path) of every program under vectors/programs: a folder named after an engine holds
    its programs, the rest are the default engine's."""
    out = []
    for p in sorted((source_dir / "vectors" / "programs").rglob("*.tmu")):
        out.append((p.parent.name if p.parent.name in ENGINES else ENGINES[0], p))
    return out


def test_every_engine_has_a_program_to_run(source_dir):
    assert {e for e, _ in programs(source_dir)} == set(ENGINES)


def test_run_gives_the_state_tmu_run_prints_or_its_refusal(tmu_exe, source_dir):
    ran = 0
    for name, path in programs(source_dir):
        for variant in tmu.engine(name).variants:
            p = cli(tmu_exe, "--engine", name, "--variant", variant, "run", path, "--indent", "-1", check=False)
            e = tmu.engine(name, variant)
            if p.returncode == 0:
                assert e.run(path.read_text()) == json.loads(p.stdout), (path, variant)
                ran += 1
            else:
                with pytest.raises(tmu.BadInput) as err:
                    e.run(path.read_text())
                assert p.stderr.strip() == str(err.value).replace("program:", f"{path}:", 1), (path, variant)
    assert ran >= len(programs(source_dir))


def test_run_show_and_values_are_those_of_tmu_run(tmu_exe, source_dir):
    amx = source_dir / "vectors" / "programs" / "amx" / "enables.tmu"
    expected = json.loads(cli(tmu_exe, "--engine", "amx", "run", amx, "--show", "z", "--values", "F32").stdout)
    assert tmu.engine("amx").run(amx.read_text(), show=["z"], values="F32") == expected
    pto = source_dir / "vectors" / "programs" / "pto" / "cmp_select.tmu"
    expected = json.loads(cli(tmu_exe, "--engine", "pto", "run", pto, "--show", "p,m").stdout)
    assert tmu.engine("pto").run(pto.read_text(), show="p,m") == expected == \
        tmu.engine("pto").run(pto.read_text(), show=("p", "m"))
    assert expected != tmu.engine("pto").run(pto.read_text())


def test_run_runs_the_engine_variant():
    program = ".tile a f32 1x8\n.tile b f32 1x8\n.set a 0 fill 1.5\nTADD b a a\n"
    for variant in tmu.engine("pto").variants:
        assert tmu.engine("pto", variant).run(program)["profile"] == variant


def test_a_bad_program_names_its_line():
    with pytest.raises(tmu.BadInput, match=r"^program:2: "):
        tmu.engine("amx").run("# a comment\nmatfp f99 z+=x*y\n")


# ---- Vector files: tmu vectors / tmu check ----

@pytest.mark.parametrize("name", ENGINES)
def test_vectors_are_the_files_tmu_vectors_writes(tmu_exe, name, tmp_path, capsys):
    cli(tmu_exe, "--engine", name, "vectors", "-o", tmp_path / "cli", "-n", 2, "--seed", 7, "-q")
    written = tree(tmp_path / "cli")
    vs = tmu.engine(name).vectors(random=2, seed=7, out=tmp_path / "py")
    assert tree(tmp_path / "py") == written
    assert {k: v.encode() for k, v in vs.items()} == {k: v for k, v in written.items() if k != "MANIFEST"}
    assert vs.manifest.encode() == written["MANIFEST"]
    assert vs.seed == 7
    assert capsys.readouterr().err == "tmu.Engine.vectors: seed 7 (replay with seed=7)\n"


@pytest.mark.parametrize("name", ENGINES)
def test_a_seed_from_the_clock_is_printed_and_replays_bit_for_bit(tmu_exe, name, tmp_path, capsys):
    e = tmu.engine(name)
    first = e.vectors(random=1)
    printed = capsys.readouterr().err
    assert isinstance(first.seed, int) and 0 <= first.seed < 2**63
    assert printed == f"tmu.Engine.vectors: seed {first.seed} (replay with seed={first.seed})\n"
    assert e.vectors(random=1, seed=first.seed) == first
    cli(tmu_exe, "--engine", name, "vectors", "-o", tmp_path, "-n", 1, "--seed", first.seed, "-q")
    assert {k: v.encode() for k, v in first.items()} == {k: v for k, v in tree(tmp_path).items() if k != "MANIFEST"}
    # Level 1 draws nothing: no seed, nothing printed.
    capsys.readouterr()
    assert e.vectors().seed is None and capsys.readouterr().err == ""


def check_line(stdout):
    """tmu check's summary line as (files, vectors, {unit: n}, verdict)."""
    m = re.search(r"^tmu check: (\d+) files, (\d+) vectors(.*): (.*)$", stdout, re.M)
    counts = {u: int(n) for n, u in re.findall(r", (\d+) ([^,]+)", m.group(3))}
    return int(m.group(1)), int(m.group(2)), counts, m.group(4)


@pytest.mark.parametrize("name", ENGINES)
def test_check_counts_what_tmu_check_counts(tmu_exe, name, tmp_path):
    e = tmu.engine(name)
    vs = e.vectors(out=tmp_path)
    files, vectors, counts, verdict = check_line(cli(tmu_exe, "check", tmp_path).stdout)
    result = e.check(tmp_path)
    assert verdict == "all match" and result["failed"] == 0 and result["differences"] == []
    assert (result["files"], result["vectors"], result["counts"]) == (files, vectors, counts) == (len(vs), vectors, counts)
    path = sorted(vs)[0]
    one = check_line(cli(tmu_exe, "check", tmp_path / path).stdout)
    from_text, from_path = e.check(vs[path]), e.check(str(tmp_path / path))
    assert from_text == from_path and (from_text["files"], from_text["vectors"], from_text["counts"]) == one[:3]


@pytest.mark.parametrize("name", ENGINES)
def test_a_wrong_expectation_is_reported_as_tmu_check_reports_it(tmu_exe, name, tmp_path):
    e = tmu.engine(name)
    path, text = sorted(e.vectors().items())[0]
    lines = text.splitlines(True)
    # Flip the low bit of the last digit of the first expectation: the model no longer agrees.
    i = next(k for k, line in enumerate(lines) if line.startswith("expect "))
    last = lines[i].rstrip("\n")
    lines[i] = last[:-1] + format(int(last[-1], 16) ^ 1, "x") + "\n"
    bad = tmp_path / pathlib.Path(path).name
    bad.write_text("".join(lines))
    p = cli(tmu_exe, "check", "--max-diffs", 3, bad, check=False)
    assert p.returncode == 1 and check_line(p.stdout)[3] == "1 vectors differ"
    result = e.check(str(bad), max_differences=3)
    assert result["failed"] == 1
    assert result["differences"] == [line for line in p.stdout.splitlines() if not line.startswith("tmu check:")]
    # The MANIFEST of a directory is verified too: a changed file is named.
    e.vectors(out=tmp_path / "set")
    (tmp_path / "set" / path).write_text("".join(lines))
    manifest = tmu.engine(name).check(tmp_path / "set")["differences"]
    assert any(path in d for d in manifest)


def test_a_file_of_another_engine_is_refused():
    amx_file = next(iter(tmu.engine("amx").vectors().values()))
    with pytest.raises(tmu.BadInput, match=r"^source:3: the file is a vector file of the amx engine, not of pto"):
        tmu.engine("pto").check(amx_file)


def test_engine_options_are_those_of_tmu_vectors(tmu_exe, tmp_path):
    cli(tmu_exe, "vectors", "--family", "zeroacc,mov", "-o", tmp_path, "-q")
    e = tmu.engine("tensix")
    expected = {k: v.decode() for k, v in tree(tmp_path).items() if k != "MANIFEST"}
    assert e.vectors(options={"family": ["zeroacc", "mov"]}) == expected
    assert e.vectors(options={"--ops": "zeroacc,mov"}) == expected  # an alias, comma-separated


# ---- The scoreboard, against the hand-written modules ----

def test_amx_scoreboard_agrees_with_tmu_amx_state():
    rng = np.random.default_rng(41)
    sb = tmu.engine("amx", "M2").scoreboard()
    state = tmu.amx.State(variant="M2")
    x = rng.uniform(-4, 4, 128).astype(np.float32)
    y = rng.uniform(-4, 4, 128).astype(np.float32)
    z = rng.uniform(-4, 4, 1024).astype(np.float32)
    state.x, state.y, state.z = x, y, z
    for location, data in (("x", x), ("y", y), ("z", z)):
        sb.load(location, data.view(np.uint32))
    for operand in (tmu.amx.matfp_operand(lane_width="f32", x_offset=0x40, y_offset=0x80),
                    tmu.amx.matfp_operand(lane_width="f32", alu="sub", z_row=1)):
        state.matfp(operand)
        sb.execute(f"0x{operand:016x}")
    model = sb.read("z")
    assert model.dtype == np.uint32 and model.shape == (1024,)
    assert (model == state.z.view(np.uint32).reshape(-1)).all()
    assert (sb.read("x 1") == state.x[1].view(np.uint32)).all()
    assert sb.compare("z", model) == []
    wrong = model.copy()
    wrong[16 * 4 + 3] ^= 1  # Z row 4, lane 3
    report = sb.compare("z", wrong)
    assert len(report) == 1 and report[0].startswith("z row 4 lane 3 (f32): design ")


def test_pto_scoreboard_agrees_with_tmu_pto_execute():
    rng = np.random.default_rng(41)
    a = rng.integers(-1000, 1000, (2, 8)).astype(np.int32)
    b = rng.integers(-1000, 1000, (2, 8)).astype(np.int32)
    for variant in tmu.engine("pto").variants:
        sb = tmu.engine("pto", variant).scoreboard()
        for tile in ("a", "b", "c"):
            sb.declare(f"{tile} i32 2x8")
        sb.load("a", a.reshape(-1).view(np.uint32))
        sb.load("b 1", b[1].view(np.uint32))  # row 1 only: row 0 of b stays zero
        sb.execute("TMAX c a b")
        b_loaded = np.vstack([np.zeros(8, np.int32), b[1]])
        expected = tmu.pto.execute("TMAX", np.zeros((2, 8), np.int32), [a, b_loaded], variant=variant)
        assert (sb.read("c").view(np.int32).reshape(2, 8) == expected).all()
        wrong = sb.read("c 1")
        wrong[5] += 1
        # The same line from the row as from the whole tile; only the location its count names differs.
        whole = sb.compare("c", np.concatenate([sb.read("c 0"), wrong]))[0]
        assert sb.compare("c 1", wrong) == [whole.replace("no other lane of c mismatches", "no other lane of c 1 mismatches")]
        assert sb.compare("c 1", wrong)[0].startswith("c (1, 5) i32: design ")


def test_tensix_scoreboard_agrees_with_tmu_tensix_machine():
    # Random BF16-range Src datums through a fidelity loop of MVMULs with FP32 Dst: the scoreboard
    # (program lines) and the Machine (its own setters and step) must leave the same Dst.
    rng = np.random.default_rng(43)
    sb = tmu.engine("tensix", "blackhole").scoreboard()
    m = tmu.tensix.Machine(variant="blackhole")
    srca = (rng.integers(0, 1 << 7, (64, 16)) << 11 | rng.integers(120, 134, (64, 16))
            | rng.integers(0, 2, (64, 16)) << 18).astype(np.uint32)
    srcb = (rng.integers(0, 1 << 7, (64, 16)) << 11 | rng.integers(120, 134, (64, 16))).astype(np.uint32)
    for operand in ("srca", "srcb"):
        sb.declare(f".bank {operand} 0 owner=matrix format=BF16")
        m.set_bank(operand, 0, owner="matrix", format="BF16")
    sb.declare(".config ALU_ACC_CTRL_Fp32_enabled=1")
    m.set_field("ALU_ACC_CTRL_Fp32_enabled", 1)
    m.set_srca(0, srca)
    m.set_srcb(0, srcb)
    for r in range(64):
        sb.load(f"srca bank 0 row {r}", srca[r])
        sb.load(f"srcb bank 0 row {r}", srcb[r])
    for phase in range(4):
        sb.declare(f".rwc FidelityPhase={phase}")
        m.set_field("FidelityPhase", phase)
        word = m.assemble("MVMUL DstRow=0")
        sb.execute(f".word 0x{word:08x}")
        m.step(word)
    for row32 in range(8):
        model = sb.read(f"dst32 row {row32}")
        assert (model == m.dst32[row32]).all()
        assert sb.compare(f"dst32 row {row32}", model) == []
    wrong = sb.read("dst32 row 5")
    wrong[9] ^= 1 << 13
    report = sb.compare("dst32 row 5", wrong)
    assert len(report) == 1 and report[0].startswith("Dst32b row 5 col 9 ")
    assert "MVMUL" in report[0] and "; diagnosis [" in report[0]


@pytest.mark.parametrize("name", ENGINES)
def test_an_engine_without_a_generic_scoreboard_says_so(tmu_exe, name):
    e = tmu.engine(name)
    try:
        sb = e.scoreboard()
    except tmu.BadInput as err:
        assert str(err) == f"the {name} engine has no generic scoreboard (tmu::EngineScoreboard)"
        return
    assert isinstance(sb, tmu.EngineScoreboard)
    with pytest.raises(tmu.BadInput):
        sb.read("no such location")


# ---- Refusals ----

def test_refusals_name_the_function_and_the_argument():
    with pytest.raises(ValueError, match=r"^tmu.engine: name: unknown engine 'tpu' \(expected tensix, amx or pto\)$"):
        tmu.engine("tpu")
    with pytest.raises(ValueError, match=r"^tmu.engine: variant: unknown amx variant 'M9' \(M1, M2, M3, M4\)$"):
        tmu.engine("amx", "M9")
    with pytest.raises(TypeError, match=r"^tmu.engine: variant: expected a str or None, got int$"):
        tmu.engine("amx", 2)
    with pytest.raises(TypeError, match=r"^tmu.engine: unexpected keyword argument 'varient' \(did you mean 'variant'\?\)$"):
        tmu.engine("amx", varient="M2")
    e = tmu.engine("tensix")
    with pytest.raises(ValueError, match=r"^tmu.Engine.vectors: options: the tensix engine has no vectors option 'famly' "
                                         r"\(did you mean 'family'\?\) \(it takes family, format, "):
        e.vectors(options={"famly": "mvmul"})
    with pytest.raises(ValueError, match=r"^tmu.Engine.vectors: options: the pto engine has no vectors options, got 'x'$"):
        tmu.engine("pto").vectors(options={"x": 1})
    with pytest.raises(TypeError, match=r"^tmu.Engine.vectors: options: expected a dict or None, got list$"):
        e.vectors(options=["family"])
    with pytest.raises(TypeError, match=r"^tmu.Engine.vectors: options\['corpus'\]: expected True or False, got str$"):
        e.vectors(options={"corpus": "yes"})
    with pytest.raises(ValueError, match=r"^tmu.Engine.vectors: level: expected 1 or 2, got 3$"):
        e.vectors(level=3)
    with pytest.raises(TypeError, match=r"^tmu.Engine.vectors: seed: expected an int or None, got float$"):
        e.vectors(seed=1.5)
    with pytest.raises(ValueError, match=r"^tmu.Engine.vectors: seed: -1 is out of range"):
        e.vectors(seed=-1)
    with pytest.raises(ValueError, match=r"^tmu.Engine.check: source: no such file or directory: 'nowhere.tmv'"):
        e.check("nowhere.tmv")
    with pytest.raises(TypeError, match=r"^tmu.Engine.check: source: expected a vector file's text, a path or a directory, got int$"):
        e.check(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^tmu.Engine.run: show: expected a comma-separated str, a list of str or None, got int$"):
        e.run("", show=3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^tmu.Engine.disassemble: word: expected a word of at most 64 bits"):
        e.disassemble(-1)
    with pytest.raises(tmu.DecodeError, match=r"opcode 0xfc is unknown or reserved"):
        e.disassemble(0xFC000000)


def test_a_bad_option_value_is_the_engine_refusal(tmu_exe):
    p = cli(tmu_exe, "vectors", "--family", "nosuch", "--list", check=False)
    assert p.returncode == 2
    with pytest.raises(tmu.BadInput) as err:
        tmu.engine("tensix").vectors(options={"family": "nosuch"})
    assert p.stderr.strip() == f"tmu vectors: {err.value}"


def test_scoreboard_refusals_name_the_argument():
    sb = tmu.engine("amx").scoreboard()
    with pytest.raises(TypeError, match=r"^tmu.EngineScoreboard.load: words: expected dtype uint32, got float64$"):
        sb.load("x 0", np.zeros(16))
    with pytest.raises(ValueError, match=r"^tmu.EngineScoreboard.compare: words: expected a 1-D array, got 2 dimensions$"):
        sb.compare("z", np.zeros((64, 16), np.uint32))
    with pytest.raises(TypeError, match=r"^tmu.EngineScoreboard.execute: op: expected a str, got int$"):
        sb.execute(5)  # type: ignore[arg-type]
    with pytest.raises(tmu.BadInput, match=r"nothing to declare"):
        sb.declare("a f32 1x8")
    with pytest.raises(tmu.BadInput, match=r"^unknown AMX location 'w 0'"):
        sb.load("w 0", np.zeros(16, np.uint32))


# ---- One keyword, variant=, in the per-engine modules ----

ONE = np.ones((32, 32))
F32 = np.ones((1, 8), np.float32)
RENAMED = [
    ("tmu.tensix.matmul", "arch", lambda **k: tmu.tensix.matmul(ONE, ONE, **k), "wormhole"),
    ("tmu.tensix.eltwise_binary", "arch", lambda **k: tmu.tensix.eltwise_binary("ELWADD", ONE, ONE, **k), "wormhole"),
    ("tmu.tensix.reduce", "arch", lambda **k: tmu.tensix.reduce(ONE, **k), "wormhole"),
    ("tmu.tensix.Machine", "arch", lambda **k: tmu.tensix.Machine(**k).variant, "wormhole"),
    ("tmu.amx.State", "version", lambda **k: tmu.amx.State(**k).variant, "M3"),
    ("tmu.amx.matfp_operand", "version", lambda **k: tmu.amx.matfp_operand(lane_width="bf16", **k), "M2"),
    ("tmu.pto.execute", "profile", lambda **k: tmu.pto.execute("TADD", F32, [F32, F32], **k), "a5"),
]


@pytest.mark.parametrize("where, old, call, value", RENAMED, ids=[r[0] for r in RENAMED])
def test_the_old_keyword_works_with_a_deprecation_warning_naming_variant(where, old, call, value):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        new = call(variant=value)
    with pytest.warns(DeprecationWarning) as caught:
        before = call(**{old: value})
    assert np.array_equal(before, new)
    assert [str(w.message) for w in caught] == [f"{where}: {old}= is deprecated: pass variant= (the same values)"]
    assert caught[0].filename == __file__  # the warning points at the caller's line
    with pytest.raises(TypeError, match=rf"^{where}: variant and {old} name the same thing: pass variant= only$"):
        call(variant=value, **{old: value})


def test_the_renamed_classes_say_their_variant():
    assert repr(tmu.tensix.Machine("Wormhole")) == "tmu.tensix.Machine(variant='wormhole')"
    assert tmu.tensix.Machine().variant == tmu.engine("tensix").variant == "blackhole"
    assert tmu.amx.State("m4").variant == "M4" and tmu.amx.State().variant == tmu.engine("amx").variant
    with pytest.raises(ValueError, match=r"^tmu.amx.State: variant: unknown AMX version 'M9'"):
        tmu.amx.State("M9")
    with pytest.raises(ValueError, match=r"^tmu.pto.execute: variant: unknown profile 'gpu'"):
        tmu.pto.execute("TADD", F32, [F32, F32], variant="gpu")
