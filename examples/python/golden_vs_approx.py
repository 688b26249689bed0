#!/usr/bin/env python3
"""A bit-exact Tensix golden beside the approximate one the public test kits write.

For a 32x32 BF16 matmul and ELWMUL at every fidelity (LoFi, HiFi2, HiFi3, HiFi4), this compares
tmu.tensix's result (the Matrix Unit's bits under tt-llk's LLK sequence) with a mantissa-masking
golden written the way tt-llk's Python test kit does it (tests/python_tests/helpers/golden_generators.py:
FidelityMasking, MatmulGolden, EltwiseBinaryGolden): each operand's significand in an 11-bit frame is
cut to the slice a fidelity phase multiplies, the phases' float32 products are summed, HiFi4 is the
plain float32 product. Then it plays a broken kernel (the audit's perturbations: a phase skipped,
repeated, negated, the operands in the wrong Src registers) and asks both goldens whether they notice:
the bit-exact golden at tolerance 0, the approximate one at the kits' tolerances.

  golden_vs_approx.py [--seed N] [--plot FILE] [--backend auto|torch|numpy]

Prints a table per part and VERDICT lines (tests/CMakeLists.txt checks them). Exit 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable, Optional

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[Any]

FIDELITIES = ["LoFi", "HiFi2", "HiFi3", "HiFi4"]
DEFAULT_SEED = 20240611

# tt-llk FidelityMasking: the significand with its hidden bit in an 11-bit frame (TF32's 10 fraction
# bits; BF16's 7 sit in bits 9..3). Phase p multiplies SrcA's slice by SrcB's slice.
SRCA_MASK = [0b11111000000, 0b00000111110, 0b11111000000, 0b00000111110]
SRCB_MASK = [0b11111110000, 0b11111110000, 0b00000001111, 0b00000001111]

# The public kits' pass criteria.
# tt-llk tests/python_tests/helpers/utils.py passed_test: torch.isclose(atol=0.05, rtol=0.05) on every
# element for Float16, Float16_b and Float32 outputs, and a Pearson correlation above 0.99.
LLK_ATOL = LLK_RTOL = 0.05
LLK_PCC = 0.99
# tt-metal tests/tt_metal/tt_metal/llk/test_single_core_binary_compute.cpp: is_close(a, b, 0.0155f)
# with tt_metal/test_utils/comparison.hpp's default atol 0.001: |a - b| <= atol or
# |a - b| <= rtol * max(|a|, |b|), element by element.
METAL_RTOL, METAL_ATOL = 0.0155, 0.001

# (fidelity, perturbation). The swap runs at HiFi2: at HiFi4 every slice of both significands meets
# every slice of the other, so an elementwise product comes out the same whichever Src register holds
# which operand; at HiFi2 SrcA's low slice is multiplied and SrcB's is not, so the roles matter.
PERTURBATIONS = [("HiFi4", p) for p in ("skip1", "skip2", "skip3", "repeat1", "repeat2", "negate1", "negate2",
                                        "negate3")] + [("HiFi2", "swap")]


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"operand seed (default {DEFAULT_SEED})")
    p.add_argument("--plot", metavar="FILE", help="write one figure (PNG, SVG or PDF by the name's suffix)")
    p.add_argument("--backend", choices=["auto", "torch", "numpy"], default="auto",
                   help="what computes the approximate golden's products (auto: torch when it imports)")
    args = p.parse_args(argv)
    if args.seed < 0 or args.seed >= 2**63:
        p.error(f"--seed: expected an integer in 0..2^63-1, got {args.seed}")
    if args.plot is not None and not args.plot.lower().endswith((".png", ".svg", ".pdf")):
        p.error(f"--plot: expected a file name ending in .png, .svg or .pdf, got '{args.plot}'")
    return args


def bf16_operand(rng: np.random.Generator, shape: tuple[int, int]) -> Array:
    """Uniform draws in [-1, 1) rounded to BF16, as tt-metal's generate_packed_uniform_random_vector
    draws its stimulus; the few below BF16's smallest normal become 0 (the Matrix Unit has no
    subnormals), so both goldens see exactly the same numbers."""
    import tmu
    v = tmu.formats.round(rng.uniform(-1.0, 1.0, shape), "bf16")
    v[np.abs(v) < 2.0**-126] = 0.0
    return v


def slice_significand(x: Array, mask: int) -> Array:
    """x (exact BF16 values) with the significand cut to `mask` in tt-llk's 11-bit frame, as float32."""
    x32 = x.astype(np.float32)
    bits = x32.view(np.uint32)
    sign = np.where(bits >> 31 == 1, -1.0, 1.0)
    exponent = ((bits >> 23) & 0xFF).astype(np.int64) - 127
    significand = ((bits & 0x7FFFFF) >> 13) | 0x400
    out = sign * np.ldexp((significand & mask).astype(np.float64), exponent - 10)
    return np.where(x32 == 0, 0.0, out).astype(np.float32)


class Approx:
    """The approximate golden: per phase, masked operands multiplied in float32, phase results summed;
    HiFi4 is the plain float32 product (tt-llk's MatmulGolden). src_a / src_b name the operand each
    Src register receives under the LLK (matmul: b to SrcA, a to SrcB; ELWMUL: a to SrcA), so the
    slices follow the hardware's roles; tt-llk's MatmulGolden applies the first mask to operand1."""

    def __init__(self, backend: str) -> None:
        self.torch: Any = None
        if backend in ("auto", "torch"):
            try:
                import torch
                self.torch = torch
            except ImportError:
                if backend == "torch":
                    sys.exit("golden_vs_approx.py: --backend torch: torch does not import")
        self.name = "torch " + self.torch.__version__ if self.torch else "numpy " + np.__version__

    def _matmul(self, x: Array, y: Array) -> Array:
        if self.torch:
            return np.asarray(self.torch.matmul(self.torch.from_numpy(x), self.torch.from_numpy(y)).numpy())
        return np.asarray(np.matmul(x, y))

    def _phases(self, fidelity: str, op: Callable[[Array, Array], Array], src_a: Array, src_b: Array) -> Array:
        passes = FIDELITIES.index(fidelity) + 1
        if passes == 4:
            return op(src_a.astype(np.float32), src_b.astype(np.float32)).astype(np.float64)
        total = np.zeros(src_a.shape if op is np.multiply else (src_b.shape[0], src_a.shape[1]), np.float32)
        for p in range(passes):
            total += op(slice_significand(src_a, SRCA_MASK[p]), slice_significand(src_b, SRCB_MASK[p]))
        return total.astype(np.float64)

    def matmul(self, a: Array, b: Array, fidelity: str) -> Array:
        return self._phases(fidelity, lambda sa, sb: self._matmul(sb, sa), b, a)

    def elwmul(self, a: Array, b: Array, fidelity: str) -> Array:
        return self._phases(fidelity, np.multiply, a, b)


def differences(exact: Array, approx: Array) -> tuple[int, float, float]:
    diff = np.abs(exact - approx)
    rel = diff / np.maximum(np.abs(exact), np.finfo(np.float64).tiny)
    return int(np.count_nonzero(diff)), float(diff.max()), float(rel[diff > 0].max()) if diff.any() else 0.0


def passes_llk(result: Array, golden: Array) -> bool:
    close = np.isclose(result, golden, rtol=LLK_RTOL, atol=LLK_ATOL).all()
    pcc = 1.0 if np.array_equal(result, golden) else float(np.corrcoef(result.ravel(), golden.ravel())[0, 1])
    return bool(close and pcc > LLK_PCC)


def passes_metal(result: Array, golden: Array) -> bool:
    diff = np.abs(result - golden)
    return bool(((diff <= METAL_ATOL) | (diff <= METAL_RTOL * np.maximum(np.abs(result), np.abs(golden)))).all())


def llk_excess(result: Array, golden: Array) -> float:
    """max |result - golden| / (atol + rtol |golden|): at most 1 passes tt-llk's isclose."""
    return float((np.abs(result - golden) / (LLK_ATOL + LLK_RTOL * np.abs(golden))).max())


def main(argv: Optional[list[str]] = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        import tmu
    except ImportError as e:
        sys.exit(f"golden_vs_approx.py: cannot import tmu ({e}); build it and set PYTHONPATH=build/python")
    approx = Approx(args.backend)
    rng = np.random.default_rng(args.seed)
    a = bf16_operand(rng, (32, 32))
    b = bf16_operand(rng, (32, 32))
    print(f"seed {args.seed}; 32x32 BF16 operands uniform in [-1, 1); FP32 Dst; approximate golden on {approx.name}")

    def exact_matmul(f: str, p: Optional[str] = None) -> Array:
        return tmu.tensix.matmul(a, b, fidelity=f, perturb=p)

    def exact_elwmul(f: str, p: Optional[str] = None) -> Array:
        return tmu.tensix.eltwise_binary("ELWMUL", a, b, fidelity=f, perturb=p)

    ops: dict[str, tuple[Callable[..., Array], Callable[[str], Array]]] = {
        "matmul": (exact_matmul, lambda f: approx.matmul(a, b, f)),
        "ELWMUL": (exact_elwmul, lambda f: approx.elwmul(a, b, f)),
    }

    print("\nPart 1: bit-exact golden (tmu.tensix) vs approximate mantissa-masking golden")
    print(f"{'case':<16} {'elements differing':>18} {'max abs diff':>13} {'max rel diff':>13}")
    part1: list[tuple[str, int, float, float]] = []
    for name, (exact_fn, approx_fn) in ops.items():
        for f in FIDELITIES:
            n, dabs, drel = differences(exact_fn(f), approx_fn(f))
            part1.append((f"{name} {f}", n, dabs, drel))
            print(f"{name + ' ' + f:<16} {f'{n} of 1024':>18} {dabs:>13.3e} {drel:>13.3e}")

    print("\nPart 2: a broken kernel (the audit's perturbations) against each golden")
    print(f"{'case':<22} {'bit-exact, tol 0':>16} {'tt-llk 0.05/0.05':>17} {'tt-metal 0.0155':>16}")
    part2: list[tuple[str, float]] = []
    caught_exact = missed_llk = missed_metal = 0
    for name, (exact_fn, approx_fn) in ops.items():
        for f, p in PERTURBATIONS:
            good, loose, broken = exact_fn(f), approx_fn(f), exact_fn(f, p)
            caught = not np.array_equal(broken, good)
            llk, metal = passes_llk(broken, loose), passes_metal(broken, loose)
            caught_exact += caught
            missed_llk += llk
            missed_metal += metal
            part2.append((f"{name} {f} {p}", llk_excess(broken, loose)))
            def word(passed: bool) -> str:
                return "passes (missed)" if passed else "fails (caught)"

            print(f"{name + ' ' + f + ' ' + p:<22} {'caught' if caught else 'MISSED':>16} {word(llk):>17} {word(metal):>16}")
    total = len(part2)
    print()
    print(f"VERDICT: bit-exact golden at tolerance 0 caught {caught_exact} of {total} perturbations")
    print(f"VERDICT: approximate golden at tt-llk's tolerance (atol=rtol=0.05, PCC>0.99) missed {missed_llk} of {total}")
    print(f"VERDICT: approximate golden at tt-metal's tolerance (rtol=0.0155, atol=0.001) missed {missed_metal} of {total}")

    if args.plot:
        plot(args.plot, part1, part2)
        print(f"plot: {args.plot}")
    return 0 if caught_exact == total else 1


def plot(path: str, part1: list[tuple[str, int, float, float]], part2: list[tuple[str, float]]) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    names = [c[0] for c in part1]
    floor = 1e-12  # a log axis has no 0: exact agreement is drawn at the floor and labelled
    left.bar(range(len(names)), [max(c[2], floor) for c in part1], color="tab:blue")
    for i, c in enumerate(part1):
        if c[1] == 0:
            left.annotate("equal", (i, floor), ha="center", va="bottom", fontsize=8)
    left.set_yscale("log")
    left.set_xticks(range(len(names)), names, rotation=60, ha="right", fontsize=8)
    left.set_ylabel("max |bit-exact - approximate|")
    left.set_title("Approximate golden vs the Matrix Unit's bits")
    names = [c[0] for c in part2]
    right.bar(range(len(names)), [c[1] for c in part2],
              color=["tab:red" if c[1] <= 1 else "tab:gray" for c in part2])
    right.axhline(1.0, color="black", linewidth=0.8)
    right.set_yscale("log")
    right.set_xticks(range(len(names)), names, rotation=60, ha="right", fontsize=8)
    right.set_ylabel("max |broken - approx| / (0.05 + 0.05 |approx|)")
    right.set_title("Broken kernels: red bars pass tt-llk's tolerance (<= 1)")
    fig.tight_layout()
    fig.savefig(path)


if __name__ == "__main__":
    sys.exit(main())
