#!/usr/bin/env python3
"""tmu.tensix.matmul's rate against float32 matmuls of the same shapes (the approximate goldens a
kernel author compares them with).

  PYTHONPATH=build/python /usr/bin/python3 refmodel/engines/tensix/bench/bench_golden.py [--sizes 256,512,1024,2048]
      [--threads 1,2] [--fidelity HiFi4] [--dst FP32] [--route auto] [--l1 BFP8,BF16]

For each N x N x N shape and thread count: the BF16 golden's wall time and CPU time, its rate in
multiply-accumulates per wall second, and numpy's and torch's float32 matmul of the same operands
on the same number of threads (torch.set_num_threads; numpy's BLAS through its own
OPENBLAS_NUM_THREADS / OMP_NUM_THREADS, reported as it runs). The golden is run once per row (it is
the slow party); the float32 figures are the best of --repeat runs. CPU time is the process's user +
system time over the call, so it shows a busy machine's stolen time as wall >> CPU / threads.
Operands: uniform draws in [-1, 1) rounded to BF16 (the Matrix Unit's normal numbers and zero),
from a fixed seed (--seed, printed). --route passes tmu.tensix.matmul's route (auto, tiles,
instructions) to a build that takes one, so the instruction route can be timed beside the tile route.
--l1 times, in the same run and on the same operands, the golden from L1 to L1 in each format given
(in_format = out_format: the operands packed from FP32 and unpacked into Src, the result packed to
L1 and read back) and prints its time over the Dst-only golden's.
"""

import argparse
import inspect
import os
import pathlib
import sys
import time

import numpy as np


def timed(fn):
    t0, c0 = time.perf_counter(), time.process_time()
    r = fn()
    return r, time.perf_counter() - t0, time.process_time() - c0


def best_seconds(fn, repeat):
    return min(timed(fn)[1] for _ in range(repeat))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="256,512,1024,2048", help="comma-separated N (multiples of 32)")
    p.add_argument("--threads", default="1", help="comma-separated thread counts for the golden and torch")
    p.add_argument("--fidelity", default="HiFi4")
    p.add_argument("--dst", default="FP32")
    p.add_argument("--repeat", type=int, default=3, help="runs of each float32 matmul; the best counts")
    p.add_argument("--seed", type=int, default=39)
    p.add_argument("--route", default="auto", help="tmu.tensix.matmul's route, for a build that takes one")
    p.add_argument("--l1", default="", help="comma-separated L1 formats to time from L1 to L1 (e.g. BFP8,BF16)")
    args = p.parse_args()
    l1_formats = [f for f in args.l1.split(",") if f]
    sizes = [int(s) for s in args.sizes.split(",")]
    counts = [int(t) for t in args.threads.split(",")]
    if any(n < 32 or n % 32 for n in sizes) or any(t < 1 for t in counts) or args.repeat < 1:
        p.error("--sizes: positive multiples of 32; --threads: positive counts; --repeat >= 1")
    try:
        import tmu
    except ImportError as e:
        sys.exit(f"bench_golden.py: cannot import tmu ({e}); set PYTHONPATH=build/python")
    try:
        import torch
    except ImportError:
        torch = None

    takes_threads = "threads" in inspect.signature(tmu.tensix.matmul).parameters
    takes_route = "route" in inspect.signature(tmu.tensix.matmul).parameters
    route = {"route": args.route} if takes_route else {}
    print(f"tmu from {pathlib.Path(tmu.__file__).parent}; threads argument: {takes_threads}; "
          f"route: {args.route if takes_route else '(instructions: the build has no route argument)'}")
    print(f"seed {args.seed}; {args.fidelity}, BF16 sources, {args.dst} Dst; load average {os.getloadavg()}")
    print(f"{'N':>5} {'thr':>3} {'golden s':>9} {'CPU s':>8} {'MAC/s':>9} {'numpy s':>8} {'torch s':>8} {'x torch':>8}")
    rng = np.random.default_rng(args.seed)
    for n in sizes:
        a = tmu.formats.round(rng.uniform(-1, 1, (n, n)), "bf16")
        b = tmu.formats.round(rng.uniform(-1, 1, (n, n)), "bf16")
        a[np.abs(a) < 2.0**-126] = 0
        b[np.abs(b) < 2.0**-126] = 0
        a32, b32 = a.astype(np.float32), b.astype(np.float32)
        numpy_s = best_seconds(lambda: a32 @ b32, args.repeat)
        for t in counts:
            # A build from before the threads argument (for old-against-new runs) takes one thread.
            kw = dict(route, **({"threads": t} if takes_threads else {}))
            if not takes_threads and t != 1:
                continue
            _, wall, cpu = timed(lambda: tmu.tensix.matmul(a, b, fidelity=args.fidelity, dst=args.dst, **kw))
            torch_s = float("nan")
            if torch is not None:
                torch.set_num_threads(t)
                ta, tb = torch.from_numpy(a32), torch.from_numpy(b32)
                torch_s = best_seconds(lambda: ta @ tb, args.repeat)
            print(f"{n:>5} {t:>3} {wall:>9.2f} {cpu:>8.2f} {n**3 / wall:>9.3g} {numpy_s:>8.3f} {torch_s:>8.3f} "
                  f"{wall / torch_s:>8.1f}")
            for f in l1_formats:
                _, l1_wall, l1_cpu = timed(lambda: tmu.tensix.matmul(a, b, fidelity=args.fidelity, dst=args.dst,
                                                                     in_format=f, out_format=f, **kw))
                print(f"{'':>5} {'':>3} {l1_wall:>9.2f} {l1_cpu:>8.2f} L1 {f} to L1 {f}: {l1_wall / wall:.3f} x the "
                      f"Dst-only golden's wall time, {l1_cpu / cpu:.3f} x its CPU time")
    print(f"load average {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
