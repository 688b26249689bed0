"""Code a kernel author writes against tmu, checked by mypy --strict (ctest python.types): every public
entry point with the types its annotations promise. Run too, so the types describe what happens."""

from __future__ import annotations

import tempfile

import numpy as np
import numpy.typing as npt

import tmu
from tmu import amx, formats, pto, tensix


def bf16_golden(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    result = tensix.matmul(a, b, fidelity="HiFi2")
    assert isinstance(result, np.ndarray)
    return result


def through_the_registry() -> None:
    """The generic API: any engine by name, each result with its declared type."""
    for listed in tmu.engines():
        e: tmu.Engine = tmu.engine(listed["name"])
        variants: list[str] = e.variants
        assert e.variant == variants[0] and e.name == listed["name"] and e.summary
    amx = tmu.engine("amx", variant="M2")
    word: int = amx.assemble("matfp f32 z+=x*y x=0x40 y=0x80")
    text: str = amx.disassemble(word)
    isa: list[str] = tmu.engine("tensix").isa()
    state: dict[str, object] = amx.run("matfp f32 z+=x*y\n", show=["z"], values="f32")
    with tempfile.TemporaryDirectory() as out:
        files: tmu.VectorSet = amx.vectors(random=1, seed=3, out=out)
        seed: int | None = files.seed
        result: dict[str, object] = amx.check(out)
    first: str = next(iter(files.values()))
    sb: tmu.EngineScoreboard = amx.scoreboard()
    sb.load("x 0", np.full(16, 0x3FC00000, np.uint32))
    sb.execute(f"0x{amx.assemble('matfp f32 z+=x*y'):016x}")
    z: npt.NDArray[np.uint32] = sb.read("z 0")
    report: list[str] = sb.compare("z 0", z)
    assert text.startswith("0000") and isa and "z" in str(state) and seed == 3 and result["failed"] == 0
    assert first.startswith("tmu-vectors") and files.manifest and report == []


def main() -> None:
    version: str = tmu.__version__
    names: list[str] = [e["name"] for e in tmu.engines()]
    word: int = tmu.assemble("ZEROACC Mode=3 AddrMod=1")
    text: str = tmu.disassemble(word)
    bits = formats.from_float(np.array([1.5]), "bf16")
    values: npt.NDArray[np.float64] = formats.to_float(bits, "bf16")
    exps, mants = formats.to_bfp(np.zeros(16), "bfp8")
    tile = pto.Tile(np.zeros((1, 8), np.float32), valid=(1, 8))
    out = pto.execute("TADD", tile, [tile, tile], profile="a2a3")
    cycles: dict[str, object] = pto.a2a3_cycles("TADD", tile, [tile, tile])
    state = amx.State("M2")
    state.x = np.zeros(128, np.float32)
    rows: tuple[int, ...] = state.matfp(amx.matfp_operand(lane_width="bf16", variant="M2"))
    fields = amx.decode_matfp(amx.matfp_operand(z_row=3))
    machine: tensix.Machine = tensix.Machine(variant="wormhole")
    machine.set_srca(0, np.zeros((2, 16), np.uint32), row=4)
    dst: npt.NDArray[np.uint16] = machine.dst16
    golden = bf16_golden(np.ones((32, 32)), np.ones((32, 32)))
    l1: npt.NDArray[np.uint8] = tensix.pack(np.ones(16), "BFP8", dst="BF16")
    back = tensix.unpack(l1, "BFP8")
    try:
        tmu.disassemble(0xFC000000)
    except tmu.DecodeError as e:
        kind = e.kind
    assert names[0] == "tensix" and version and text.startswith("10184000") and values[0] == 1.5
    assert exps.shape == (1,) and mants.shape == (16,) and out.shape == (1, 8) and cycles["cycles"]
    assert rows and fields["z_row"] == 3 and dst.shape == (1024, 16) and golden[0, 0] == 32.0
    assert kind == "DecodeError" and l1.shape == (17,) and back[0] == 1.0
    through_the_registry()


if __name__ == "__main__":
    main()
    print("usage.py: ran")
