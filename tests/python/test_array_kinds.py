"""Every public callable that takes arrays, crossed with every kind of array a test suite may hand
it: the result must be bit-identical to the call with a plain C-contiguous native numpy array of the
same values, whatever the byte order, memory order, strides, alignment, writability or container
(numpy scalar, __array__ object, DLPack object, CPU torch tensor)."""

import numpy as np
import pytest

import tmu

torch = pytest.importorskip("torch")


def swapped(a):
    return a.astype(a.dtype.newbyteorder()), a


def fortran(a):
    return np.asfortranarray(a), a


def strided(a):
    """Every other element of a buffer twice as long along the last axis."""
    big = np.zeros(a.shape[:-1] + (a.shape[-1] * 2,), a.dtype)
    big[..., ::2] = a
    return big[..., ::2], a


def reversed_view(a):
    """A negative-stride view of a reversed copy: the same values, walked backwards in memory."""
    r = np.ascontiguousarray(np.flip(a))
    return np.flip(r), a


def read_only(a):
    c = a.copy()
    c.flags.writeable = False
    return c, a


def unaligned(a):
    """The same values at an odd address (numpy marks the array unaligned)."""
    buf = np.zeros(a.nbytes + 1, np.uint8)
    u = np.frombuffer(buf.data, a.dtype, count=a.size, offset=1).reshape(a.shape)
    if a.dtype.itemsize > 1:
        assert not u.flags.aligned
    u[...] = a
    return u, a


def zero_stride(a):
    """A broadcast of the first element: zero strides; the reference is its C copy."""
    b = np.broadcast_to(a.reshape(-1)[0], a.shape)
    return b, np.ascontiguousarray(b)


def array_interface(a):
    class Holder:
        def __init__(self, x):
            self.x = x

        def __array__(self, dtype=None):
            return self.x if dtype is None else self.x.astype(dtype)

    return Holder(a.copy()), a


def dlpack(a):
    class Capsule:
        def __init__(self, x):
            self.x = x

        def __dlpack__(self, stream=None):
            return self.x.__dlpack__()

        def __dlpack_device__(self):
            return self.x.__dlpack_device__()

    return Capsule(a.copy()), a


TORCH_SIGNED = {np.dtype(np.uint16): torch.int16, np.dtype(np.uint32): torch.int32}


def tensor(a):
    """A CPU torch tensor of the same bits (torch has no uint16/uint32: their patterns travel in the
    signed integer of the same width)."""
    if a.dtype in TORCH_SIGNED:
        return torch.from_numpy(a.view(a.dtype.str.replace("u", "i"))), a
    return torch.from_numpy(a.copy()), a


def tensor_non_contiguous(a):
    t, ref = tensor(a)
    if t.dim() < 2:
        return t, ref
    return t.t().contiguous().t(), ref  # column-major storage, same values


def tensor_requires_grad(a):
    if a.dtype.kind != "f" or a.dtype.itemsize < 4:
        return tensor(a)
    return torch.from_numpy(a.copy()).requires_grad_(True), a


KINDS = [swapped, fortran, strided, reversed_view, read_only, unaligned, zero_stride, array_interface, dlpack, tensor,
         tensor_non_contiguous, tensor_requires_grad]


def same(x, y):
    """Bit-identical results: the same structure, dtypes, shapes and bytes."""
    if isinstance(x, dict):
        assert isinstance(y, dict) and x.keys() == y.keys()
        for k in x:
            same(x[k], y[k])
    elif isinstance(x, (tuple, list)):
        assert type(x) is type(y) and len(x) == len(y)
        for a, b in zip(x, y):
            same(a, b)
    elif isinstance(x, np.ndarray):
        assert isinstance(y, np.ndarray) and x.dtype == y.dtype and x.shape == y.shape
        assert np.ascontiguousarray(x).tobytes() == np.ascontiguousarray(y).tobytes()
    else:
        assert x == y


rng = np.random.default_rng(20261202)  # fixed: the table is the same on every run


def bf16_values(shape):
    """Random BF16 numbers (no subnormals, infinities or NaNs), as float64."""
    bits = rng.integers(0x0080, 0x7F00, size=shape, dtype=np.uint16) | (rng.integers(0, 2, size=shape, dtype=np.uint16) << 15)
    return tmu.formats.to_float(bits, "bf16")


def bf16_bits(shape):
    return tmu.formats.from_float(bf16_values(shape), "bf16")


# (name, the arguments as plain C arrays, the call taking them in order).
CASES = [
    ("formats.from_float", [rng.standard_normal((3, 5))], lambda v: tmu.formats.from_float(v, "bf16", "rne")),
    ("formats.to_float", [rng.integers(0, 2**16, (4, 6), dtype=np.uint16)], lambda b: tmu.formats.to_float(b, "bf16")),
    ("formats.to_float int8", [rng.integers(-128, 128, (2, 6), dtype=np.int8)], lambda b: tmu.formats.to_float(b, "int8")),
    ("formats.round", [rng.standard_normal((2, 7)).astype(np.float32)], lambda v: tmu.formats.round(v, "fp16")),
    ("formats.to_bfp", [rng.standard_normal((2, 32))], lambda v: tmu.formats.to_bfp(v, "bfp8", "rne")),
    ("formats.from_bfp", [rng.integers(100, 140, (2, 2), dtype=np.uint8), rng.integers(0, 256, (2, 32), dtype=np.uint8)],
     lambda e, m: tmu.formats.from_bfp(e, m, "bfp8")),
    ("formats.bfp_to_src", [rng.integers(100, 140, (1, 2), dtype=np.uint8), rng.integers(0, 256, (1, 32), dtype=np.uint8)],
     lambda e, m: tmu.formats.bfp_to_src(e, m, "bfp8")),
    ("pto.execute f32", [rng.standard_normal((2, 8)).astype(np.float32), rng.standard_normal((2, 8)).astype(np.float32),
                         rng.standard_normal((2, 8)).astype(np.float32)],
     lambda d, a, b: tmu.pto.execute("TMUL", d, [a, b])),
    ("pto.execute i16", [rng.integers(-9, 9, (2, 16), dtype=np.int16), rng.integers(-9, 9, (2, 16), dtype=np.int16)],
     lambda d, a: tmu.pto.execute("TADD", d, [a, a])),
    ("pto.execute bf16 Tile", [bf16_bits((2, 16)), bf16_bits((2, 16))],
     lambda d, a: tmu.pto.execute("TADD", tmu.pto.Tile(d, type="bf16"), [tmu.pto.Tile(a, type="bf16"), tmu.pto.Tile(a, type="bf16")])),
    ("pto.a2a3_cycles", [np.zeros((2, 8), np.float32), np.ones((2, 8), np.float32)],
     lambda d, a: tmu.pto.a2a3_cycles("TADD", d, [a, a])),
    ("tensix.matmul", [bf16_values((32, 64)), bf16_values((64, 32))], lambda a, b: tmu.tensix.matmul(a, b, bits=True)),
    ("tensix.matmul bits", [bf16_bits((32, 32)), bf16_bits((32, 32))],
     lambda a, b: tmu.tensix.matmul(a, b, input="bits", fidelity="LoFi")),
    ("tensix.eltwise_binary", [bf16_values((32, 32)), bf16_values((1, 32))],
     lambda a, b: tmu.tensix.eltwise_binary("ELWMUL", a, b)),
    ("tensix.reduce", [bf16_values((32, 64))], lambda a: tmu.tensix.reduce(a, "max", "col", argmax=True)),
    ("tensix.unpacker_conversion", [rng.integers(0, 2**32, (3, 4), dtype=np.uint32)],
     lambda b: tmu.tensix.unpacker_conversion(b, "BF16")),
]


def machine_call(method, *fixed):
    def call(a):
        m = tmu.tensix.Machine()
        getattr(m, method)(*fixed, a)
        return m.state()
    return call


CASES += [
    ("Machine.set_srca", [rng.integers(0, 2**19, (4, 16), dtype=np.uint32)], machine_call("set_srca", 1)),
    ("Machine.set_dst16", [rng.integers(0, 2**16, (3, 16), dtype=np.uint16)], machine_call("set_dst16")),
    ("Machine.set_dst32", [rng.integers(0, 2**32, (2, 16), dtype=np.uint32)], machine_call("set_dst32")),
    ("Machine.set_gprs", [rng.integers(0, 2**32, (5,), dtype=np.uint32)], machine_call("set_gprs")),
    ("Machine.run", [np.array([tmu.assemble("ZEROACC Mode=3 AddrMod=1"), tmu.assemble("ZEROACC Mode=0 AddrMod=0")], np.uint32)],
     lambda w: tmu.tensix.Machine().run(w)),
]


def amx_assign(x):
    s = tmu.amx.State()
    s.x = x
    return s.x.copy()


CASES.append(("amx.State.x", [rng.standard_normal((8, 16)).astype(np.float32)], amx_assign))


@pytest.mark.parametrize("kind", KINDS, ids=[k.__name__ for k in KINDS])
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_every_array_kind_gives_the_plain_result(case, kind):
    _, arrays, call = case
    # One argument at a time takes the kind; the others stay plain, so a failure names its argument.
    for position in range(len(arrays)):
        args, ref = list(arrays), list(arrays)
        args[position], ref[position] = kind(arrays[position])
        same(call(*args), call(*[np.ascontiguousarray(r) for r in ref]))


@pytest.mark.parametrize("value, fmt, dtype", [(1.5, "bf16", np.float64), (np.float32(-2.0), "fp16", np.float32)])
def test_scalars_and_zero_d_arrays(value, fmt, dtype):
    bits = tmu.formats.from_float(np.asarray(value, dtype), fmt)
    assert bits.shape == ()
    assert tmu.formats.from_float(value, fmt) == bits
    assert float(tmu.formats.to_float(bits[()], fmt)) == float(value)  # a numpy scalar of the bits dtype


def test_a_bfloat16_tensor_is_its_values_or_its_patterns():
    t = torch.tensor([[1.5, -2.0, 0.0078125, 3.0] * 8] * 32, dtype=torch.bfloat16)
    patterns = t.view(torch.int16).numpy().view(np.uint16)
    assert tmu.formats.to_float(t, "bf16").tolist() == t.float().tolist()  # bits where bits are asked for
    same(tmu.formats.from_float(t, "bf16"), patterns)                       # values where values are
    same(tmu.tensix.matmul(t, t.T.contiguous()), tmu.tensix.matmul(t.float().numpy(), t.float().numpy().T))
    same(tmu.tensix.matmul(t, t.T, input="bits"), tmu.tensix.matmul(t.float().numpy(), t.float().numpy().T))
    tile = np.zeros((32, 32), np.uint16)
    same(tmu.pto.execute("TADD", torch.zeros((32, 32), dtype=torch.bfloat16), [t, t]),
         tmu.pto.execute("TADD", tmu.pto.Tile(tile, "bf16"), [tmu.pto.Tile(patterns, "bf16")] * 2))


def test_a_tensor_off_the_cpu_is_refused_by_name():
    class FakeDevice:
        type = "cuda"

    class NotOnCpu(torch.Tensor):
        @property
        def device(self):
            return FakeDevice()

    t = torch.zeros((32, 32)).as_subclass(NotOnCpu)
    with pytest.raises(TypeError, match=r"^tmu.tensix.matmul: a: a torch tensor on device 'cuda': move it to the CPU"):
        tmu.tensix.matmul(t, t)


def test_a_signed_tensor_is_not_a_float_pattern_array():
    with pytest.raises(TypeError, match=r"^tmu.formats.to_float: bits: expected dtype uint16, got float32$"):
        tmu.formats.to_float(torch.zeros(3), "bf16")
