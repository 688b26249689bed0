"""tmu.tensix.Machine: results derived by hand from the ISA pages (ELWADD.md, MVMUL.md, SETRWC.md,
INCRWC.md, ZEROACC.md, Dst.md, SrcASrcB.md), the cross-check against `tmu run` of every Tensix program
in vectors/programs (JSON compare), step vs run equivalence, and every refusal with its type and words."""

import gc
import json
import pathlib
import re
import subprocess

import numpy as np
import pytest

import tmu
from tmu.tensix import Machine

# Src datum layout (SrcASrcB.md): sign 18, BF16 mantissa 17:11, exponent 7:0 (bias 127).
SRC_BF16_1 = 0x0007F          # 1.0: exponent 127, mantissa 0
SRC_BF16_1_5 = 0x2007F        # 1.5: mantissa 1000000b -> 0x40 << 11
SRC_BF16_2 = 0x00080          # 2.0: exponent 128
SRC_BF16_1_0078125 = 0x0087F  # 1 + 2^-7: mantissa 0000001b -> 1 << 11
# Dst16 BF16 layout (Dst.md): sign 15, mantissa 14:8, exponent 7:0.
DST16_BF16_3_5 = 0x6080       # 1.11b x 2^1: mantissa 1100000b = 0x60, exponent 128
DST16_BF16_7 = 0x6081         # 1.11b x 2^2
# Dst32 FP32 layout: sign 31, mantissa high 7 bits 30:24, exponent 23:16, mantissa low 16 bits 15:0.
DST32_FP32_32 = 0x00840000    # 2^5: exponent 132


def rows(value, n=1, dtype=np.uint32):
    return np.full((n, 16), value, dtype)


def machine_with_banks(arch="blackhole"):
    m = Machine(arch)
    m.set_bank("srca", 0, owner="matrix", format="BF16")
    m.set_bank("srcb", 0, owner="matrix", format="BF16")
    return m


# ---- hand-derived results -------------------------------------------------------------------


def test_reset_state():
    m = Machine()
    assert m.arch == "blackhole" and repr(m) == "tmu.tensix.Machine(variant='blackhole')"
    assert m.srca.shape == (2, 64, 16) and m.srca.dtype == np.uint32 and not m.srca.any()
    assert m.srcb.shape == (2, 64, 16) and m.dst16.shape == (1024, 16) and m.dst16.dtype == np.uint16
    assert m.dst32.shape == (512, 16) and m.dst32.dtype == np.uint32
    assert m.dst_valid.shape == (1024,) and not m.dst_valid.any()
    assert m.gprs.shape == (3, 64) and m.rwcs.shape == (3,)
    assert m.rwcs.dtype.names == ("Dst", "Dst_Cr", "SrcA", "SrcA_Cr", "SrcB", "SrcB_Cr", "FidelityPhase", "ExtraAddrModBit")
    assert m.state(["banks"])["banks"]["SrcA"][0] == {"AllowedClient": "Unpackers", "Format": "FP32"}
    assert Machine("wormhole").arch == "wormhole"


@pytest.mark.parametrize("arch", ["blackhole", "wormhole"])
def test_elwadd_bf16_by_hand(arch):
    # ELWADD.md: Dst16b[DstRow + i][j] = RoundToBF16(SrcA + SrcB) for 8 rows; AddDst=1 adds Dst. The
    # operand style is BF16 both ways: Blackhole takes it from the bank's BF16 tag, Wormhole from
    # ALU_FORMAT_SPEC_REG0_SrcA = 0 (FP32, a BF16-style format).
    m = machine_with_banks(arch)
    m.set_srca(0, rows(SRC_BF16_1_5, 8))
    m.set_srcb(0, rows(SRC_BF16_2, 8))
    m.set_dst16(rows(0x1234, 16, np.uint16))  # stale bits that ZEROACC must hide
    m.run([m.assemble("ZEROACC Mode=3"), m.assemble("ELWADD DstRow=0")])
    assert (m.dst16[0:8] == DST16_BF16_3_5).all()
    assert m.dst_valid[:8].all() and not m.dst_valid[8:].any()
    assert (m.dst16[8:16] == 0x1234).all()  # ZEROACC leaves the bits, clears validity (Dst.md)
    w = m.step(m.assemble("ELWADD DstRow=0 AddDst=1"))
    assert (m.dst16[0:8] == DST16_BF16_7).all()
    assert w["writes"]["dst_rows"] == list(range(8))


def test_elwadd_into_an_invalid_row_reads_zero():
    # ELWADD AddDst=1 into rows ZEROACC made invalid adds 0 (MVMUL.md: undefined rows read as zero).
    m = machine_with_banks()
    m.set_srca(0, rows(SRC_BF16_1_5, 8))
    m.set_srcb(0, rows(SRC_BF16_2, 8))
    m.set_dst16(rows(DST16_BF16_7, 8, np.uint16))
    m.step(m.assemble("ZEROACC Mode=3"))
    m.step(m.assemble("ELWADD DstRow=0 AddDst=1"))
    assert (m.dst16[0:8] == DST16_BF16_3_5).all()


def test_mvmul_fp32_by_hand_and_fidelity_phase():
    # MVMUL.md: Dst32b[i][j] += sum over k < 16 of SrcB[i][k] * SrcA[k][j]: 16 * 2 * 1 = 32.
    m = machine_with_banks()
    m.set_field("ALU_ACC_CTRL_Fp32_enabled", 1)
    m.set_srca(0, rows(SRC_BF16_1, 16))
    m.set_srcb(0, rows(SRC_BF16_2, 8))
    m.run([m.assemble("ZEROACC Mode=3"), m.assemble("MVMUL DstRow=0")])
    assert (m.dst32[0:8] == DST32_FP32_32).all()
    # Adj32 (Dst.md): Dst32b row r < 8 has its high half in DstBits row r, its low half in row r + 8.
    assert (m.dst16[0:8] == 0x0084).all() and (m.dst16[8:16] == 0).all()
    assert m.dst_valid[0:8].all()
    # Phase 0 consumes SrcA's top 5 significand bits only (MVMUL.md): 1 + 2^-7 counts as 1, so the
    # sum is 32 again, not 32.25; FIDELITY_BASE_Phase=1 takes the next bits: +16 * 2 * 2^-7 = 0.25.
    m.set_srca(0, rows(SRC_BF16_1_0078125, 16))
    m.run([m.assemble("ZEROACC Mode=3"), m.assemble("MVMUL DstRow=0")])
    assert (m.dst32[0:8] == DST32_FP32_32).all()
    m.set_field("FIDELITY_BASE_Phase", 1)
    m.step(m.assemble("MVMUL DstRow=0"))
    # 32.25 = 1.0000001b x 2^5: mantissa high bits 0000001b, exponent 132.
    assert (m.dst32[0:8] == 0x01840000).all()


def test_setrwc_incrwc_by_hand():
    # SETRWC.md / INCRWC.md on thread 1; counters wrap at their widths (SrcA/SrcB 6 bits, Dst 10 bits).
    m = Machine()
    asm = m.assemble
    m.set_field("SrcA_Cr", 10, thread=1)
    m.step(asm("SETRWC SrcA=1 SrcACr=1 SrcAVal=5"), thread=1)
    assert (m.rwcs["SrcA"][1], m.rwcs["SrcA_Cr"][1]) == (15, 15)
    m.step(asm("INCRWC SrcAInc=3"), thread=1)
    assert (m.rwcs["SrcA"][1], m.rwcs["SrcA_Cr"][1]) == (18, 15)
    m.step(asm("INCRWC SrcAInc=2 SrcACr=1"), thread=1)
    assert (m.rwcs["SrcA"][1], m.rwcs["SrcA_Cr"][1]) == (17, 17)
    m.set_field("Dst", 1020, thread=1)
    m.step(asm("SETRWC DstCtoCr=1 DstVal=7"), thread=1)  # 1020 + 7 = 1027 -> 3
    assert (m.rwcs["Dst"][1], m.rwcs["Dst_Cr"][1]) == (3, 3)
    m.step(asm("INCRWC DstInc=15"), thread=1)
    assert (m.rwcs["Dst"][1], m.rwcs["Dst_Cr"][1]) == (18, 3)
    m.run([asm("INCRWC SrcBInc=15")] * 5, thread=1)  # 75 -> 11
    assert (m.rwcs["SrcB"][1], m.rwcs["SrcB_Cr"][1]) == (11, 0)
    m.set_field("FidelityPhase", 3, thread=1)
    assert m.field("FidelityPhase", thread=1) == 3
    m.step(asm("SETRWC Fidelity=1"), thread=1)
    assert m.rwcs["FidelityPhase"][1] == 0
    assert not any(m.rwcs[0].tolist()) and not any(m.rwcs[2].tolist())  # other threads untouched


def test_set_dst32_goes_through_adj32():
    # Dst.md: Adj32(8) = ((8 & 0x1f8) << 1) | (8 & 0x207) = 16; the low half is 8 rows further.
    m = Machine()
    m.set_dst32(np.full(16, 0xAABBCCDD, np.uint32), row=8)
    assert (m.dst16[16] == 0xAABB).all() and (m.dst16[24] == 0xCCDD).all()
    assert (m.dst32[8] == 0xAABBCCDD).all()
    assert m.dst_valid[16] and not m.dst_valid[24]  # only the high half's validity is tracked
    assert m.state(["dst32"])["dst32"]["8"] == {"valid": True, "bits": ["0xaabbccdd"] * 16}


def test_fields_and_setters():
    m = Machine()
    names = Machine.fields()
    assert set(names) == {"config", "threadconfig", "addrmod", "rwc", "global"}
    assert "ALU_ACC_CTRL_Fp32_enabled" in names["config"] and "SrcAIncr" in names["addrmod"]
    flat = [n for v in names.values() for n in v]
    assert len(flat) == len(set(n.lower() for n in flat))  # one scope per name, so lookup is by name alone
    m.set_field("ALU_FORMAT_SPEC_REG0_SrcA", 5, state=1)
    assert m.field("ALU_FORMAT_SPEC_REG0_SrcA", state=1) == 5 and m.field("ALU_FORMAT_SPEC_REG0_SrcA") == 0
    m.set_field("CFG_STATE_ID_StateID", 1, thread=2)  # thread 2 now reads Config[1] by default
    assert m.field("ALU_FORMAT_SPEC_REG0_SrcA", thread=2) == 5
    m.set_field("DestIncr", 8, thread=1, slot=3)
    assert m.state(["threadconfig"])["threadconfig"][1]["ADDR_MOD"][3]["DestIncr"] == 8
    m.set_field("SrcABank", 1)
    m.set_gprs(np.array([7, 0xFFFFFFFF], np.uint32), thread=2, index=62)
    assert m.gprs[2, 62:].tolist() == [7, 0xFFFFFFFF]
    m.set_bank("srcb", 1, owner="matrix", format="FP16")
    m.set_unpacker(1, 1)
    banks = m.state(["banks"])["banks"]
    assert banks["SrcB"][1] == {"AllowedClient": "MatrixUnit", "Format": "FP16"}
    assert banks["SrcABank"] == 1 and banks["Unpackers"] == [0, 1]


# ---- views -----------------------------------------------------------------------------------


def test_views_are_live_read_only_and_keep_the_machine_alive():
    m = Machine()
    a, g = m.srca, m.gprs
    m.set_srca(1, np.arange(16, dtype=np.uint32), row=63)
    assert a[1, 63].tolist() == list(range(16))  # live: no copy was taken
    for v in (m.srca, m.srcb, m.dst16, m.dst_valid, m.gprs, m.rwcs):
        with pytest.raises(ValueError, match="read-only"):
            v[0] = 1
        with pytest.raises(ValueError):
            v.flags.writeable = True
    m.run(".gpr 3 0x1234\n")
    del m
    gc.collect()
    assert g[0, 3] == 0x1234 and a[1, 63, 15] == 15  # the views hold the Machine


def test_copy_and_reset():
    m = Machine("wormhole")
    m.set_srca(0, rows(SRC_BF16_2))
    c = m.copy()
    v = m.srca
    m.reset()
    assert m.arch == "wormhole" and not v.any()  # views taken before show the reset state
    assert c.arch == "wormhole" and (c.srca[0, 0] == SRC_BF16_2).all()


# ---- disassemble / assemble for the Machine's arch -------------------------------------------


def test_assemble_disassemble_follow_the_arch():
    # ZEROACC's AddrMod is bits 16:14 on Blackhole and 16:15 on Wormhole (tmu isa): Mode=3 is bits 20:19.
    assert Machine().assemble("ZEROACC Mode=3 AddrMod=1") == 0x10 << 24 | 3 << 19 | 1 << 14
    assert Machine("wormhole").assemble("ZEROACC Mode=3 AddrMod=1") == 0x10 << 24 | 3 << 19 | 1 << 15
    assert "AddrMod=1" in Machine("wormhole").disassemble(0x10188000)
    assert Machine().disassemble(0x10184000) == tmu.disassemble(0x10184000)


# ---- cross-checks: tmu run, step vs run ------------------------------------------------------

PROGRAMS = sorted((pathlib.Path(__file__).resolve().parents[2] / "vectors" / "programs").glob("*.tmu"))


def program_arch(text):
    m = re.search(r"^\s*\.arch\s+(\S+)", text, re.M)
    return m.group(1) if m else "blackhole"


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.name)
def test_program_matches_tmu_run(path, tmu_exe):
    text = path.read_text()
    cli = json.loads(subprocess.run([tmu_exe, "run", str(path)], check=True, capture_output=True, text=True).stdout)
    m = Machine(program_arch(text))
    counts = m.run(text)  # `tmu run` prints the counts beside the state
    assert {**m.state(), **counts} == cli
    parts = ["dst32", "rwcs"]
    cli32 = json.loads(subprocess.run([tmu_exe, "run", "--show", ",".join(parts), str(path)], check=True,
                                      capture_output=True, text=True).stdout)
    assert {**m.state(parts), **counts} == cli32


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.name)
def test_program_on_wormhole_matches_tmu_run(path, tmu_exe, tmp_path):
    # The same programs without their `.arch` line, on Wormhole: the same JSON, or the same refusal
    # (matmul's rotated MVMUL words set bit 14, Blackhole's AddrMod bit, reserved on Wormhole;
    # l1_matmul's PACR names ReadIntfSel, Blackhole's, where Wormhole's PACR has PackerMask).
    text = "".join(line for line in path.read_text().splitlines(True) if not line.startswith(".arch"))
    (tmp_path / path.name).write_text(text)
    cli = subprocess.run([tmu_exe, "run", "--arch", "wormhole", str(tmp_path / path.name)], capture_output=True, text=True)
    m = Machine("wormhole")
    if cli.returncode == 0:
        counts = m.run(text)
        assert {**m.state(), **counts} == json.loads(cli.stdout)
        return
    with pytest.raises(tmu.Error) as e:
        m.run(text)
    where, _, rest = cli.stderr.strip().partition(": ")
    kind = type(e.value).__name__
    assert rest.startswith(kind + ": ") and path.name in ("matmul_32x32_hifi4.tmu", "l1_matmul.tmu")
    assert str(e.value) == "<program>:" + where.rsplit(":", 1)[1] + ": " + rest[len(kind) + 2:]
    assert m.state() == Machine("wormhole").state()


def expand(lines):
    """The program's lines with `.repeat N` ... `.end` unrolled (comments stripped)."""
    out, i = [], 0
    while i < len(lines):
        words = re.split(r"[#;]", lines[i])[0].split()
        if words and words[0] == ".repeat":
            depth, j = 1, i + 1
            while depth:
                w = re.split(r"[#;]", lines[j])[0].split()
                depth += (w[:1] == [".repeat"]) - (w[:1] == [".end"])
                j += 1
            out += expand(lines[i + 1:j - 1]) * int(words[1])
            i = j
            continue
        if words:
            out.append(" ".join(words))
        i += 1
    return out


def rotate_right_2(word):
    # BabyRISCV/PushTensixInstruction.md: kernel binaries hold the word rotated left by 2.
    return ((word >> 2) | (word << 30)) & 0xFFFFFFFF


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.name)
def test_step_and_run_words_match_run_text(path):
    text = path.read_text()
    arch = program_arch(text)
    whole = Machine(arch)
    whole.run(text)
    stepped, batched = Machine(arch), Machine(arch)
    thread, batch = 0, []

    def flush():
        if batch:
            batched.run(np.array(batch, np.uint32), thread=thread)
            batch.clear()

    for line in expand(text.splitlines()):
        words = line.split()
        if words[0] == ".word":
            rotated = words[-1] == "rotated"
            word = int(words[1], 16)
            stepped.step(word, thread=thread, rotated=rotated)
            batch.append(rotate_right_2(word) if rotated else word)
        elif not words[0].startswith("."):
            word = stepped.assemble(line)
            stepped.step(word, thread=thread)
            batch.append(word)
        elif words[0] != ".arch":
            flush()
            if words[0] == ".thread":
                thread = int(words[1])
            for m in (stepped, batched):
                m.run(f".thread {thread}\n{line}\n")
    flush()
    assert stepped.state(["dst32", "rwcs", "gprs", "banks", "srca", "srcb", "dst", "config", "threadconfig"]) == \
        whole.state(["dst32", "rwcs", "gprs", "banks", "srca", "srcb", "dst", "config", "threadconfig"])
    assert batched.state() == whole.state()


def test_run_counts():
    m = machine_with_banks()
    r = m.run([m.assemble("ZEROACC Mode=3"), m.assemble("ELWADD DstRow=0"), m.assemble("SETRWC SrcA=1")])
    assert r["instructions"] == 3
    text = m.run(".bank srca 0 owner=matrix\n.bank srcb 0 owner=matrix\nZEROACC Mode=3\nELWADD DstRow=0\nSETRWC SrcA=1\n")
    assert text == r


# ---- refusals --------------------------------------------------------------------------------


def test_bad_arch():
    with pytest.raises(ValueError, match=r"^tmu\.tensix\.Machine: variant: unknown arch 'grayskull' \(expected blackhole or wormhole\)$"):
        Machine("grayskull")


def test_reserved_opcode_word_leaves_state_alone():
    m = Machine()
    m.set_gprs(np.array([5], np.uint32))
    before = m.state()
    with pytest.raises(tmu.DecodeError, match=r"^cannot decode word 0xff000000 on blackhole: opcode 0xff is unknown or reserved"):
        m.step(0xFF000000)
    # Part-way through a run: the first word ran, the second is refused, and the state rolls back.
    with pytest.raises(tmu.DecodeError, match=r"^words\[1\] = 0xff000000: cannot decode word"):
        m.run([m.assemble("SETRWC SrcA=1 SrcAVal=3"), 0xFF000000])
    with pytest.raises(tmu.DecodeError, match=r"^<program>:2: cannot decode word 0xff000000"):
        m.run("SETRWC SrcA=1 SrcAVal=3\n.word 0xff000000\n")
    assert m.state() == before


def test_model_refusal_kinds_survive():
    m = Machine()
    # ZEROACC Revert=1 in a multi-row mode: ZEROACC.md calls UndefinedBehaviour().
    word = m.assemble("ZEROACC Mode=3 Revert=1")
    with pytest.raises(tmu.UndefinedBehaviour) as step_err:
        m.step(word)
    with pytest.raises(tmu.UndefinedBehaviour) as text_err:
        m.run("ZEROACC Mode=3 Revert=1\n")
    assert str(text_err.value) == "<program>:1: " + str(step_err.value)


def test_stall_is_refused():
    m = Machine()  # both banks still owned by the Unpackers
    m.set_srca(0, rows(SRC_BF16_1))
    with pytest.raises(tmu.BadInput, match=r"^MVMUL stalls: .*set_bank\(\.\.\., owner='matrix'\)"):
        m.step(m.assemble("MVMUL DstRow=0"))
    with pytest.raises(tmu.BadInput, match=r"^<program>:1: MVMUL stalls"):
        m.run("MVMUL DstRow=0\n")


def test_program_text_refusals():
    m = Machine()
    with pytest.raises(tmu.BadInput, match=r"^<program>:1: '\.arch wormhole' differs from the blackhole state"):
        m.run(".arch wormhole\n")
    m.run(".arch blackhole\n")  # the Machine's own arch is fine
    with pytest.raises(tmu.BadInput, match=r"^<program>:2: unknown directive '\.srcc'"):
        m.run(".gpr 1 1\n.srcc 0 0 fill 0\n")
    assert m.gprs[0, 1] == 0
    with pytest.raises(ValueError, match=r"^tmu\.tensix\.Machine\.run: thread: program text chooses its thread with '\.thread N'$"):
        m.run(".gpr 1 1\n", thread=1)
    with pytest.raises(ValueError, match=r"run: rotated: "):
        m.run(".gpr 1 1\n", rotated=True)


def test_word_arguments():
    m = Machine()
    with pytest.raises(ValueError, match=r"^tmu\.tensix\.Machine\.step: word: 4294967296 is out of range \(expected 0\.\.4294967295\)$"):
        m.step(1 << 32)
    with pytest.raises(ValueError, match=r"step: word: -1 is out of range"):
        m.step(-1)
    with pytest.raises(TypeError, match=r"step: word: expected an int, got float"):
        m.step(1.0)
    with pytest.raises(TypeError, match=r"step: word: expected an int, got bool"):
        m.step(True)
    with pytest.raises(ValueError, match=r"^tmu\.tensix\.Machine\.step: thread: 3 is out of range \(expected 0\.\.2\)$"):
        m.step(m.assemble("SETRWC SrcA=1"), thread=3)
    with pytest.raises(ValueError, match=r"run: words\[1\]: 4294967296 is out of range"):
        m.run([0x37000001, 1 << 32])
    with pytest.raises(TypeError, match=r"run: words: expected dtype uint32, got int64"):
        m.run(np.array([0x37000001]))
    with pytest.raises(ValueError, match=r"run: words: expected a 1-D array, got 2 dimensions"):
        m.run(np.zeros((2, 2), np.uint32))
    with pytest.raises(TypeError, match=r"run: words: expected program text \(str\), a uint32 array or a list of ints, got int"):
        m.run(0x37000001)
    assert m.step(np.uint32(0x37000001))["writes"]["rwcs"]  # numpy integer scalars are ints


def test_preload_refusals():
    m = Machine()
    w = r"^tmu\.tensix\.Machine\."
    with pytest.raises(TypeError, match=w + r"set_srca: rows: expected dtype uint32, got int32$"):
        m.set_srca(0, np.zeros((1, 16), np.int32))
    with pytest.raises(TypeError, match=w + r"set_dst16: rows: expected dtype uint16, got float64$"):
        m.set_dst16(np.zeros((1, 16)))
    with pytest.raises(TypeError, match=r"set_srcb: rows: expected a numpy array of dtype uint32, got list"):
        m.set_srcb(0, [[0] * 16])
    with pytest.raises(ValueError, match=w + r"set_srca: rows: expected shape \(n, 16\) or \(16,\), got \(2, 15\)$"):
        m.set_srca(0, np.zeros((2, 15), np.uint32))
    with pytest.raises(ValueError, match=r"set_dst32: rows: expected shape \(n, 16\) or \(16,\), got \(15,\)$"):
        m.set_dst32(np.zeros(15, np.uint32))
    with pytest.raises(ValueError, match=w + r"set_srca: rows: element \(1, 3\) = 0x80000 is wider than a 19-bit Src datum"):
        bad = np.zeros((2, 16), np.uint32)
        bad[1, 3] = 0x80000
        m.set_srca(0, bad)
    assert not m.srca.any()  # nothing written by a refused preload
    with pytest.raises(ValueError, match=w + r"set_srca: bank: 2 is out of range \(expected 0\.\.1\)$"):
        m.set_srca(2, rows(0))
    with pytest.raises(ValueError, match=w + r"set_srcb: row: 64 is out of range \(expected 0\.\.63\)$"):
        m.set_srcb(0, rows(0), row=64)
    with pytest.raises(ValueError, match=r"set_srcb: rows: 2 rows from Src row 63 run past its last row 63$"):
        m.set_srcb(0, rows(0, 2), row=63)
    with pytest.raises(ValueError, match=r"set_dst16: row: 1024 is out of range \(expected 0\.\.1023\)$"):
        m.set_dst16(rows(0, 1, np.uint16), row=1024)
    with pytest.raises(ValueError, match=r"set_dst32: rows: 2 rows from Dst32b row 511 run past its last row 511$"):
        m.set_dst32(rows(0, 2), row=511)
    with pytest.raises(ValueError, match=w + r"set_gprs: index: 64 is out of range \(expected 0\.\.63\)$"):
        m.set_gprs(np.zeros(1, np.uint32), index=64)
    with pytest.raises(ValueError, match=r"set_gprs: values: 2 values from GPR 63 run past GPR 63$"):
        m.set_gprs(np.zeros(2, np.uint32), index=63)
    with pytest.raises(ValueError, match=r"set_gprs: thread: 3 is out of range"):
        m.set_gprs(np.zeros(1, np.uint32), thread=3)


def test_field_refusals():
    m = Machine()
    w = r"^tmu\.tensix\.Machine\."
    with pytest.raises(ValueError, match=w + r"set_field: value \(SrcA is 6 bits\): 64 is out of range \(expected 0\.\.63\)$"):
        m.set_field("SrcA", 64)
    with pytest.raises(ValueError, match=w + r"field: name: no state field 'SrcC' \(Machine\.fields\(\) lists them\)$"):
        m.field("SrcC")
    with pytest.raises(ValueError, match=r"set_field: slot: 'DestIncr' is an ADDR_MOD field: name its slot \(0\.\.7\)$"):
        m.set_field("DestIncr", 1)
    with pytest.raises(ValueError, match=r"field: slot: 8 is out of range \(expected 0\.\.7\)$"):
        m.field("DestIncr", slot=8)
    with pytest.raises(ValueError, match=r"field: slot: 'SrcA' is not an ADDR_MOD field"):
        m.field("SrcA", slot=0)
    with pytest.raises(ValueError, match=r"field: state: 'SrcA' is not a Config field"):
        m.field("SrcA", state=0)
    with pytest.raises(ValueError, match=r"field: state: 2 is out of range \(expected 0\.\.1\)$"):
        m.field("ALU_ACC_CTRL_Fp32_enabled", state=2)
    with pytest.raises(ValueError, match=w + r"set_bank: operand: expected 'srca' or 'srcb', got 'dst'$"):
        m.set_bank("dst", 0, owner="matrix")
    with pytest.raises(ValueError, match=r"set_bank: owner: expected 'matrix' or 'unpackers', got 'packer'$"):
        m.set_bank("srca", 0, owner="packer")
    with pytest.raises(ValueError, match=r"set_bank: format: unknown data format 'FP64'"):
        m.set_bank("srca", 0, format="FP64")
    assert m.state(["banks"])["banks"]["SrcA"][0] == {"AllowedClient": "Unpackers", "Format": "FP32"}
    with pytest.raises(ValueError, match=w + r"state: parts: unknown part 'dst64'"):
        m.state(["dst64"])
    with pytest.raises(TypeError, match=r"state: parts: expected a list of part names, got str"):
        m.state("dst")


def test_docs_example():
    # docs/python.md, "The raw Tensix machine", line by line.
    m = Machine()
    m.set_bank("srca", 0, owner="matrix", format="BF16")
    m.set_bank("srcb", 0, owner="matrix", format="BF16")
    m.set_srca(0, np.full((8, 16), 0x2007F, np.uint32))
    m.set_srcb(0, np.full((8, 16), 0x00080, np.uint32))
    assert m.run([m.assemble("ZEROACC Mode=3"), m.assemble("ELWADD DstRow=0")]) == \
        {"instructions": 2, "matrix_unit_cycles": 2, "scalar_unit_cycles": 0}
    assert (hex(m.dst16[0, 0]), m.dst_valid[:9].tolist()) == ("0x6080", [True] * 8 + [False])
    assert m.step(m.assemble("ELWADD DstRow=0 AddDst=1"))["writes"]["dst_rows"] == [0, 1, 2, 3, 4, 5, 6, 7]
    assert hex(m.dst16[0, 0]) == "0x6081"
    assert m.run([m.assemble("SETRWC Dst=1 DstVal=5"), m.assemble("INCRWC DstInc=3")], thread=1)["instructions"] == 2
    assert (m.rwcs["Dst"].tolist(), m.rwcs["Dst_Cr"].tolist()) == ([0, 8, 0], [0, 5, 0])
    with pytest.raises(tmu.DecodeError) as e:
        m.step(0xFF000000)
    assert str(e.value) == ("cannot decode word 0xff000000 on blackhole: opcode 0xff is unknown or reserved "
                            "(no instruction in tmu's ISA table has it)")
