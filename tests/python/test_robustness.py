"""Inputs a test suite produces by accident: copies that cannot be made, shapes past the model's
bounds, foreign byte order, wrong argument types and values. Each must raise an exception naming
the call and the argument (MemoryError, TypeError, ValueError), never crash the interpreter or
return a value computed from misread input."""

import inspect
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tmu


needs_plain_memory = pytest.mark.skipif(os.environ.get("TMU_SANITIZER") == "1",
                                        reason="under ASan an allocation that fails aborts, and its shadow memory does not fit "
                                               "under an address-space cap")


def run_limited(code, limit_mib):
    """Runs `code` in a fresh interpreter whose address space is capped `limit_mib` MiB above what it
    uses after importing tmu; returns (returncode, stdout + stderr)."""
    prologue = textwrap.dedent(f"""
        import resource, numpy as np, tmu
        def vm_bytes():
            for line in open("/proc/self/status"):
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
        cap = vm_bytes() + {limit_mib} * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    """)
    p = subprocess.run([sys.executable, "-c", prologue + textwrap.dedent(code)], capture_output=True, text=True,
                       env=os.environ, timeout=120)
    return p.returncode, p.stdout + p.stderr


# (where, argument, call, dtype, shape, MiB of address space left after the imports): a
# Fortran-ordered array that fits, whose C-ordered copy (the layout the model reads) does not.
COPY_NEEDED = [
    ("tmu.formats.to_float", "bits", "tmu.formats.to_float(big, 'bf16')", "np.uint16", (49152, 2048), 256),
    ("tmu.tensix.matmul", "a", "tmu.tensix.matmul(big, big, input='bits')", "np.uint16", (49152, 2048), 256),
    ("tmu.tensix.Machine.set_srca", "rows", "tmu.tensix.Machine().set_srca(0, big)", "np.uint32", (2**22, 16), 384),
    ("tmu.pto.execute", "dst", "tmu.pto.execute('TADD', big, [big, big])", "np.uint64", (2048, 2048), 48),
]


@needs_plain_memory
@pytest.mark.parametrize("where, arg, call, dtype, shape, headroom", COPY_NEEDED, ids=[c[0] for c in COPY_NEEDED])
def test_a_copy_that_cannot_be_made_is_a_memory_error_naming_the_call(where, arg, call, dtype, shape, headroom):
    code = f"""
        big = np.zeros({shape}, {dtype}, order="F")
        try:
            {call}
        except MemoryError as e:
            print("MemoryError:", e)
    """
    rc, out = run_limited(code, headroom)
    assert rc == 0, out  # a signal (a crash) is a negative return code
    assert f"MemoryError: {where}: {arg}: cannot allocate a copy" in out


@needs_plain_memory
def test_a_result_that_cannot_be_allocated_is_a_memory_error_naming_the_call():
    code = """
        x = np.broadcast_to(np.float64(1.5), (2**14, 2**14))   # no memory of its own; 2 GiB of results
        try:
            tmu.formats.round(x, 'bf16')
        except MemoryError as e:
            print("MemoryError:", e)
    """
    rc, out = run_limited(code, 512)
    assert rc == 0, out
    assert "MemoryError: tmu.formats.round:" in out


def test_pto_refuses_a_dimension_past_its_tiles_instead_of_truncating_it():
    wide = np.broadcast_to(np.uint8(1), (1, 2**32 + 32))  # zero strides: no memory behind it
    with pytest.raises(ValueError, match=r"^tmu.pto.execute: srcs\[0\]: a dimension of 4294967328 is beyond what the model "
                                         r"takes \(at most 4194304\)"):
        tmu.pto.execute("TADD", np.zeros((1, 32), np.uint8), [wide, wide])


@pytest.mark.parametrize("order", [">", "<"])
def test_pto_reads_either_byte_order_as_values(order):
    a = np.full((1, 8), 1.5, order + "f4")
    out = tmu.pto.execute("TADD", np.zeros((1, 8), order + "f4"), [a, a])
    assert out.dtype == np.float32 and (out == 3.0).all()
    bf = tmu.pto.Tile(np.full((1, 16), 0x3FC0, order + "u2"), type="bf16")          # BF16 1.5
    out = tmu.pto.execute("TADD", tmu.pto.Tile(np.zeros((1, 16), order + "u2"), type="bf16"), [bf, bf])
    assert (out == 0x4040).all()                                                   # BF16 3.0


def test_byte_order_of_bit_patterns_is_their_value():
    # 0x3fc0 is BF16 1.5 whichever way round the bytes sit in memory.
    assert tmu.formats.to_float(np.array([0x3FC0], ">u2"), "bf16")[0] == 1.5


def test_amx_refuses_bf16_on_m1_and_without_a_generation():
    with pytest.raises(ValueError, match=r"^tmu.amx.matfp_operand: lane_width: 'bf16' does not exist on M1"):
        tmu.amx.matfp_operand(lane_width="bf16", variant="M1")
    with pytest.raises(ValueError, match=r"^tmu.amx.matfp_operand: lane_width: 'bf16f32' exists from M2 on"):
        tmu.amx.matfp_operand(lane_width="bf16f32")
    # On M2, code 0 is bf16: 1.5 * 2.0 = 3.0 in every bf16 lane of row 0 (0x4040).
    s = tmu.amx.State("M2")
    s.x.view(np.uint16)[0] = 0x3FC0
    s.y.view(np.uint16)[0] = 0x4000
    s.matfp(tmu.amx.matfp_operand(lane_width="bf16", variant="M2"))
    assert (s.z.view(np.uint16)[0] == 0x4040).all()


def test_amx_operands_name_their_function_and_range():
    with pytest.raises(ValueError, match=r"^tmu.amx.decode_matfp: operand: 18446744073709551616 is out of range "
                                         r"\(expected 0..2\*\*64-1"):
        tmu.amx.decode_matfp(2**64)
    with pytest.raises(ValueError, match=r"^tmu.amx.State.matfp: operand: 1180591620717411303424 is out of range"):
        tmu.amx.State().matfp(2**70)
    with pytest.raises(ValueError, match=r"^tmu.amx.matfp_operand: z_row: -1 is out of range"):
        tmu.amx.matfp_operand(z_row=-1)
    assert tmu.amx.decode_matfp(np.uint64(0x100000010080))["y_offset"] == 0x80   # numpy integers are ints


@pytest.mark.parametrize("call, message", [
    (lambda: tmu.tensix.matmul(np.ones((32, 32)), np.ones((32, 32)), fidelity=None),
     r"^tmu.tensix.matmul: fidelity: expected a str, got NoneType$"),
    (lambda: tmu.tensix.matmul(np.ones((32, 32)), np.ones((32, 32)), dst=32),
     r"^tmu.tensix.matmul: dst: expected a str, got int$"),
    (lambda: tmu.tensix.matmul(np.ones((32, 32)), np.ones((32, 32)), bits=1),
     r"^tmu.tensix.matmul: bits: expected True or False, got int$"),
    (lambda: tmu.tensix.matmul(np.ones((32, 32)), np.ones((32, 32)), fidelty="LoFi"),
     r"^tmu.tensix.matmul: unexpected keyword argument 'fidelty' \(did you mean 'fidelity'\?\)$"),
    (lambda: tmu.tensix.matmul(np.ones((32, 32))), r"^tmu.tensix.matmul: missing a required argument: 'b'$"),
    (lambda: tmu.tensix.reduce(np.ones((32, 32)), scaler="1"), r"^tmu.tensix.reduce: scaler: expected a real number or None"),
    (lambda: tmu.pto.execute("TADD", np.zeros((1, 8), np.float32), np.zeros((1, 8), np.float32)),
     r"^tmu.pto.execute: srcs: expected a list of tiles in the intrinsic's order, got ndarray$"),
    (lambda: tmu.formats.to_float(np.uint16(0x3FC0), 7), r"^tmu.formats.to_float: fmt: expected a str, got int$"),
    (lambda: tmu.formats.to_float([0x3FC0], "bf16"), r"^tmu.formats.to_float: bits: expected a numpy array of dtype uint16, got list "),
    (lambda: tmu.amx.matfp_operand(x_enable=5), r"^tmu.amx.matfp_operand: x_enable: expected \(mode, value\)"),
    (lambda: tmu.tensix.Machine(variant=3), r"^tmu.tensix.Machine: variant: expected a str, got int$"),
    (lambda: tmu.tensix.Machine().step(0, rotated=1), r"^tmu.tensix.Machine.step: rotated: expected True or False, got int$"),
    (lambda: tmu.amx.State(variant=b"M2"), r"^tmu.amx.State: variant: expected a str, got bytes$"),
])
def test_wrong_argument_types_name_the_function_and_the_argument(call, message):
    with pytest.raises(TypeError, match=message):
        call()


def test_a_numpy_scalar_of_the_bits_dtype_is_taken():
    assert float(tmu.formats.to_float(np.uint16(0x3FC0), "bf16")) == 1.5


def test_a_numpy_bool_is_a_bool():
    a = np.full((32, 32), 2.0)
    assert isinstance(tmu.tensix.matmul(a, a, bits=np.True_), dict)


def test_public_functions_have_signatures():
    for module in (tmu, tmu.formats, tmu.pto, tmu.amx, tmu.tensix):
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isfunction(obj):
                sig = inspect.signature(obj)
                assert obj.__doc__, f"{module.__name__}.{name} has no docstring"
                for p in sig.parameters.values():
                    assert p.annotation is not inspect.Parameter.empty, f"{module.__name__}.{name}({p.name}) is not annotated"
    assert list(inspect.signature(tmu.tensix.matmul).parameters)[:3] == ["a", "b", "fidelity"]
