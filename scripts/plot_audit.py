#!/usr/bin/python3
"""Plots for `tmu audit` (audit.md in tmu's documentation).

usage: /usr/bin/python3 plot_audit.py DIR

Reads DIR/error_hist.csv and DIR/bits_vs_k.csv (written by `tmu audit --out DIR`) and writes, per
input distribution:
  DIR/errors_<op>_<dist>.png  distribution of log2(relative error) per fidelity level, K = 1,
                              next to the two IEEE references; one panel per source format x Dst mode
  DIR/bits_vs_k_<dist>.png    effective bits (-log2 median relative error) versus K, MVMUL
and, when the audit packed MVMUL's results to L1 (ops MVMUL-L1-<format>):
  DIR/packed.png              effective bits at K = 1 per fidelity: the FP32 Dst result beside the same
                              result packed to each L1 format and read back; one panel per
                              distribution x source format
and, when the audit ran the AMX rows (op MATFP):
  DIR/errors_matfp_<dist>.png the same error distributions for AMX matfp, K = 1
  DIR/bits_vs_k_engines.png   effective bits versus K, Tensix MVMUL (FP32 Dst, LoFi..HiFi4) beside
                              the AMX mode on the same input stream; one row per distribution
and, when the audit ran the PTO rows (DIR/cross_engines.csv):
  DIR/cross_engines.png       element-wise multiply and add across engines: effective bits (median,
                              with the 99th percentile as a tick) per source format, Tensix ELWMUL
                              LoFi..HiFi4, Tensix ELWADD (one bar group per Dst mode when every
                              fidelity measured the same), PTO TMUL and TADD, AMX matfp K=1; one
                              panel per distribution
Needs matplotlib (Debian: python3-matplotlib; run with /usr/bin/python3).
"""
import csv
import math
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)

FIDELITIES = ["LoFi", "HiFi2", "HiFi3", "HiFi4"]
REFERENCES = ["IEEE-once", "IEEE-seq"]
COLOURS = {"LoFi": "#d62728", "HiFi2": "#ff7f0e", "HiFi3": "#2ca02c", "HiFi4": "#1f77b4",
           "IEEE-once": "#7f7f7f", "IEEE-seq": "#000000"}
DST_LABEL = {"dst16": "16-bit Dst", "dst32": "FP32 Dst"}
# Each Matrix Unit source format beside the AMX mode that shares its input stream.
ENGINE_PAIRS = [("BF16", "AMX bf16->f32"), ("FP16", "AMX f16->f32"), ("TF32", "AMX f32")]
AMX_COLOUR = "#9467bd"
PACKED_PREFIX = "MVMUL-L1-"


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def ordered(values, preferred):
    return [v for v in preferred if v in values] + sorted(v for v in values if v not in preferred)


def panel_grid(n_rows, n_cols, title):
    fig, axes = plt.subplots(n_rows, n_cols, figsize=(5.2 * n_cols, 3.3 * n_rows), squeeze=False,
                             constrained_layout=True)
    # A one-column figure is too narrow for a one-line title.
    fig.suptitle(title.replace(": ", ":\n", 1) if n_cols == 1 else title)
    return fig, axes


def plot_error_histograms(rows, out_dir):
    series = defaultdict(list)  # (op, dist, src, dst, method) -> [(lo, hi, count)]
    for r in rows:
        series[(r["op"], r["dist"], r["src"], r["dst_mode"], r["method"])].append(
            (float(r["bin_lo"]), float(r["bin_hi"]), int(r["count"])))
    written = []
    for op in sorted({k[0] for k in series}):
        for dist in sorted({k[1] for k in series if k[0] == op}):
            keys = [k for k in series if k[0] == op and k[1] == dist]
            srcs = ordered({k[2] for k in keys}, ["BF16", "FP16", "TF32"])
            dsts = ordered({k[3] for k in keys}, ["dst16", "dst32"])
            what = {"MVMUL": "32x32 tile matmul (K = 1)", "MATFP": "(AMX) 32x32 tile matmul (K = 1)"}.get(
                op, "element-wise multiply")
            if op.startswith(PACKED_PREFIX):
                what = f"32x32 tile matmul (K = 1), FP32 Dst packed to L1 {op[len(PACKED_PREFIX):]}"
            fig, axes = panel_grid(len(srcs), len(dsts),
                                   f"{op} {what}, {dist} inputs: distribution of log2(relative error)")
            for i, src in enumerate(srcs):
                for j, dst in enumerate(dsts):
                    ax = axes[i][j]
                    methods = ordered({k[4] for k in keys if k[2] == src and k[3] == dst},
                                      FIDELITIES + REFERENCES)
                    for m in methods:
                        bins = series[(op, dist, src, dst, m)]
                        total = sum(c for _, _, c in bins) or 1
                        # The first bin holds the exact results (and any below 2^-40): stated in the
                        # legend rather than drawn, so it cannot flatten the rest.
                        exact = sum(c for lo, _, c in bins if math.isinf(lo))
                        xs, ys = [], []
                        for lo, hi, c in bins:
                            if math.isinf(lo):
                                continue
                            if math.isinf(hi):
                                hi = lo + 0.5
                            xs += [lo, hi]
                            ys += [c / total, c / total]
                        style = "--" if m in REFERENCES else "-"
                        pct = 100 * exact / total
                        share = f"{pct:.0f}" if pct >= 10 else f"{pct:.2g}"
                        label = m + (f" ({share}% exact or < 2^-40)" if exact else "")
                        colour = AMX_COLOUR if m.startswith("AMX") else COLOURS.get(m)
                        ax.plot(xs, ys, style, color=colour, label=label, linewidth=1.2)
                    acc = "f32 Z" if op == "MATFP" else DST_LABEL.get(dst, dst)
                    ax.set_title(f"{src} sources, {acc}")
                    ax.set_xlim(-36, 4)
                    ax.set_xlabel("log2(relative error)")
                    ax.set_ylabel("fraction of results")
                    ax.grid(alpha=0.3)
                    ax.legend(fontsize=7, loc="upper left")
            name = os.path.join(out_dir, f"errors_{op.lower()}_{dist}.png")
            fig.savefig(name, dpi=110)
            plt.close(fig)
            written.append(name)
    return written


def plot_bits_vs_k(rows, out_dir):
    series = defaultdict(list)  # (dist, src, dst, method) -> [(k, bits)]
    for r in rows:
        if r["op"] != "MVMUL":
            continue
        series[(r["dist"], r["src"], r["dst_mode"], r["method"])].append((int(r["k"]), float(r["bits"])))
    written = []
    for dist in sorted({k[0] for k in series}):
        keys = [k for k in series if k[0] == dist]
        srcs = ordered({k[1] for k in keys}, ["BF16", "FP16", "TF32"])
        dsts = ordered({k[2] for k in keys}, ["dst16", "dst32"])
        fig, axes = panel_grid(len(srcs), len(dsts),
                               f"MVMUL, {dist} inputs: effective bits (-log2 median relative error) vs K")
        for i, src in enumerate(srcs):
            for j, dst in enumerate(dsts):
                ax = axes[i][j]
                methods = ordered({k[3] for k in keys if k[1] == src and k[2] == dst}, FIDELITIES + REFERENCES)
                for m in methods:
                    points = sorted(series[(dist, src, dst, m)])
                    style = "--" if m in REFERENCES else "-"
                    ax.plot([k for k, _ in points], [min(b, 30) for _, b in points], style, marker=".",
                            color=COLOURS.get(m), label=m, linewidth=1.2)
                ax.set_xscale("log", base=2)
                ax.set_title(f"{src} sources, {DST_LABEL.get(dst, dst)}")
                ax.set_xlabel("K (tiles of 32 accumulated; inner dimension 32K)")
                ax.set_ylabel("bits (capped at 30 = exact)")
                ax.grid(alpha=0.3)
        axes[0][0].legend(fontsize=8)
        name = os.path.join(out_dir, f"bits_vs_k_{dist}.png")
        fig.savefig(name, dpi=110)
        plt.close(fig)
        written.append(name)
    return written


def plot_engines(rows, out_dir):
    tensix = defaultdict(list)  # (dist, src, fidelity) -> [(k, bits)], FP32 Dst
    amx = defaultdict(list)     # (dist, method) -> [(k, bits)]
    for r in rows:
        point = (int(r["k"]), float(r["bits"]))
        if r["op"] == "MVMUL" and r["dst_mode"] == "dst32" and r["method"] in FIDELITIES:
            tensix[(r["dist"], r["src"], r["method"])].append(point)
        elif r["op"] == "MATFP" and r["method"].startswith("AMX"):
            amx[(r["dist"], r["method"])].append(point)
    if not amx:
        return []
    dists = ordered({d for d, _ in amx}, ["uniform", "normal", "loguniform", "cancel"])
    pairs = [(src, mode) for src, mode in ENGINE_PAIRS
             if any((d, mode) in amx for d in dists) or any(k[1] == src for k in tensix)]
    fig, axes = panel_grid(len(dists), len(pairs),
                           "Effective bits (-log2 median relative error) vs K: "
                           "Tensix MVMUL (FP32 Dst) beside AMX matfp (f32 Z), same input streams")
    for i, dist in enumerate(dists):
        for j, (src, mode) in enumerate(pairs):
            ax = axes[i][j]
            for fidelity in FIDELITIES:
                points = sorted(tensix.get((dist, src, fidelity), []))
                if points:
                    ax.plot([k for k, _ in points], [min(b, 30) for _, b in points], "-", marker=".",
                            color=COLOURS[fidelity], label=f"Tensix {src} {fidelity}", linewidth=1.2)
            points = sorted(amx.get((dist, mode), []))
            if points:
                ax.plot([k for k, _ in points], [min(b, 30) for _, b in points], "--", marker=".",
                        color=AMX_COLOUR, label=mode, linewidth=1.8)
            ax.set_xscale("log", base=2)
            ax.set_ylim(bottom=min(0, ax.get_ylim()[0]), top=31)
            ax.set_title(f"{dist}: Tensix {src} | {mode}")
            ax.set_xlabel("K (tiles of 32 accumulated; inner dimension 32K)")
            ax.set_ylabel("bits (capped at 30 = exact)")
            ax.grid(alpha=0.3)
            if i == 0:
                ax.legend(fontsize=7)
    name = os.path.join(out_dir, "bits_vs_k_engines.png")
    fig.savefig(name, dpi=110)
    plt.close(fig)
    return [name]


def dst_label(r):
    return "FP32 Dst" if r["result_format"] == "FP32 Dst" else "16-bit Dst"


def same_at_every_fidelity(rows):
    """Dst modes whose ELWADD lines agree across fidelities in every statistic, for every source and
    distribution: those get one bar group (audit.md states whether the lane results are identical)."""
    stats = defaultdict(set)
    for r in rows:
        if r["engine"] == "Tensix" and r["operation"] == "ELWADD":
            key = (dst_label(r), r["src"], r["dist"])
            stats[key].add(tuple(r[c] for c in ("count", "bits", "bits_p99", "max_ulp", "mean_ulp")))
    modes = {key[0] for key in stats}
    return {m for m in modes if all(len(v) == 1 for k, v in stats.items() if k[0] == m)}


def cross_label(r, one_group=frozenset()):
    """One bar group per method across the source formats (as audit.md's table rows)."""
    if r["engine"] == "Tensix":
        if r["operation"] == "ELWADD" and dst_label(r) in one_group:
            return f"Tensix ELWADD any fidelity ({dst_label(r)})"
        return f'Tensix {r["operation"]} {r["method"]} ({dst_label(r)})'
    if r["engine"] == "AMX":
        return "AMX MATFP K=1"
    return f'PTO {r["operation"]}'


def cross_order(label):
    for i, prefix in enumerate(["Tensix ELWMUL", "Tensix ELWADD", "PTO TMUL", "PTO TADD", "AMX"]):
        if label.startswith(prefix):
            fidelity = next((j for j, f in enumerate(FIDELITIES) if f" {f} " in label), 0)
            return (i, "FP32" in label, fidelity, label)
    return (9, False, 0, label)


def plot_packed(rows, out_dir):
    """Bars per fidelity: MVMUL's FP32 Dst result, then each L1 format it was packed to (K = 1)."""
    bits = {}  # (dist, src, result, method) -> median bits; result "FP32 Dst" or "L1 <format>"
    for r in rows:
        if r["k"] != "1" or r["dst_mode"] != "dst32" or r["method"] not in FIDELITIES:
            continue
        if r["op"] == "MVMUL":
            bits[(r["dist"], r["src"], "FP32 Dst", r["method"])] = float(r["bits"])
        elif r["op"].startswith(PACKED_PREFIX):
            bits[(r["dist"], r["src"], "L1 " + r["op"][len(PACKED_PREFIX):], r["method"])] = float(r["bits"])
    results = ordered({k[2] for k in bits}, ["FP32 Dst", "L1 FP16", "L1 BF16", "L1 BFP8"])
    if len(results) < 2:
        return []
    dists = ordered({k[0] for k in bits}, ["uniform", "normal", "loguniform", "cancel"])
    srcs = ordered({k[1] for k in bits}, ["BF16", "FP16", "TF32"])
    fig, axes = panel_grid(len(dists), len(srcs), "MVMUL from L1 to L1, K = 1: effective bits of the FP32 Dst "
                                                  "result and of the same result packed to L1 and read back")
    width = 0.8 / len(results)
    shades = ["#1f77b4", "#2ca02c", "#ff7f0e", "#d62728", "#9467bd"]
    for i, dist in enumerate(dists):
        for j, src in enumerate(srcs):
            ax = axes[i][j]
            for n, result in enumerate(results):
                xs, ys = [], []
                for x, method in enumerate(FIDELITIES):
                    if (dist, src, result, method) in bits:
                        xs.append(x + (n - (len(results) - 1) / 2) * width)
                        ys.append(min(bits[(dist, src, result, method)], 30))
                ax.bar(xs, ys, width=width, color=shades[n % len(shades)], label=result)
            ax.set_xticks(range(len(FIDELITIES)))
            ax.set_xticklabels(FIDELITIES)
            ax.set_ylabel("bits (median)")
            ax.set_title(f"{src} sources, {dist} inputs")
            ax.grid(alpha=0.3, axis="y")
            ax.legend(fontsize=7)
    name = os.path.join(out_dir, "packed.png")
    fig.savefig(name, dpi=110)
    plt.close(fig)
    return [name]


def plot_cross_engines(rows, out_dir):
    """Grouped bars: one group per engine/operation/method, one bar per source format."""
    if not rows:
        return []
    dists = ordered({r["dist"] for r in rows}, ["uniform", "normal", "loguniform"])
    srcs = ordered({r["src"] for r in rows}, ["BF16", "FP16", "TF32"])
    src_colours = {"BF16": "#1f77b4", "FP16": "#ff7f0e", "TF32": "#2ca02c"}
    one_group = same_at_every_fidelity(rows)
    # One line per bar: the first of the identical ELWADD fidelity lines stands for them all.
    seen, kept = set(), []
    for r in rows:
        key = (cross_label(r, one_group), r["src"], r["dist"])
        if key not in seen:
            seen.add(key)
            kept.append(r)
    rows = kept
    fig, axes = panel_grid(len(dists), 1, "Element-wise multiply and add across engines, same operands, "
                                          "against MPFR: effective bits (median; tick: 99th percentile)")
    for i, dist in enumerate(dists):
        ax = axes[i][0]
        labels = sorted({cross_label(r, one_group) for r in rows if r["dist"] == dist}, key=cross_order)
        width = 0.8 / max(1, len(srcs))
        for j, src in enumerate(srcs):
            xs, med, p99 = [], [], []
            for x, label in enumerate(labels):
                for r in rows:
                    if r["dist"] == dist and r["src"] == src and cross_label(r, one_group) == label:
                        xs.append(x + (j - (len(srcs) - 1) / 2) * width)
                        med.append(min(float(r["bits"]), 30))
                        p99.append(min(float(r["bits_p99"]), 30))
            if xs:
                ax.bar(xs, med, width=width, color=src_colours.get(src, "#7f7f7f"), label=src)
                ax.plot(xs, p99, "_", color="black", markersize=8)
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, rotation=35, ha="right", fontsize=7)
        ax.set_ylabel("bits (capped at 30 = exact)")
        ax.set_title(dist)
        ax.grid(alpha=0.3, axis="y")
        ax.legend(fontsize=7)
    fig.set_size_inches(11, 4.6 * len(dists))
    name = os.path.join(out_dir, "cross_engines.png")
    fig.savefig(name, dpi=110)
    plt.close(fig)
    return [name]


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out_dir = argv[1]
    try:
        hist = read_csv(os.path.join(out_dir, "error_hist.csv"))
        bits = read_csv(os.path.join(out_dir, "bits_vs_k.csv"))
    except OSError as e:
        print(f"plot_audit.py: {e}", file=sys.stderr)
        return 2
    cross_path = os.path.join(out_dir, "cross_engines.csv")
    cross = read_csv(cross_path) if os.path.exists(cross_path) else []
    for name in (plot_error_histograms(hist, out_dir) + plot_bits_vs_k(bits, out_dir) + plot_packed(bits, out_dir)
                 + plot_engines(bits, out_dir)
                 + plot_cross_engines(cross, out_dir)):
        print(f"plot_audit.py: wrote {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
