#!/usr/bin/python3
"""Plots for `tmu audit` (audit.md in tmu's documentation).

usage: /usr/bin/python3 plot_audit.py DIR

Reads the CSV files `tmu audit --out DIR` wrote and draws PNGs beside them. Each engine draws its own
plots with the helpers here: a module plots.py in the engine's audit/ directory (installed as
plot_audit.d/<engine>.py next to this script) whose plots(kit, tables, out_dir) returns the files it
wrote, whose claims(op) says which ops of error_hist.csv it draws, and whose COLOURS may name its
methods' line colours. Here:
  DIR/errors_<op>_<dist>.png  for an op no engine's module claims: the distribution of
                              log2(relative error) per method, next to the IEEE references
  DIR/cross_engines.png       with DIR/cross_engines.csv: element-wise multiply and add across engines,
                              effective bits (median, with the 99th percentile as a tick) per source
                              format, one bar group per row of audit.md's table, one panel per
                              distribution
The engines' plots are listed in audit.md ("Files"). Needs matplotlib (Debian: python3-matplotlib;
run with /usr/bin/python3).
"""
import csv
import glob
import importlib.util
import math
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)

REFERENCES = ["IEEE-once", "IEEE-seq"]
REFERENCE_COLOURS = {"IEEE-once": "#7f7f7f", "IEEE-seq": "#000000"}
PALETTE = ["#d62728", "#ff7f0e", "#2ca02c", "#1f77b4", "#9467bd", "#8c564b", "#e377c2", "#17becf"]
SRC_ORDER = ["BF16", "FP16", "TF32"]
DIST_ORDER = ["uniform", "normal", "loguniform", "cancel"]
HERE = os.path.dirname(os.path.abspath(__file__))


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


def save(fig, out_dir, name):
    path = os.path.join(out_dir, name)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def error_histograms(rows, out_dir, title, panel_title, method_order, colour):
    """errors_<op>_<dist>.png for each op and distribution of error_hist.csv rows: one panel per source
    format x accumulator mode, one line per method. title(op, dist) and panel_title(op, src, dst_mode)
    name them; method_order lists the methods first drawn; colour(method) gives a line's colour."""
    series = defaultdict(list)  # (op, dist, src, dst, method) -> [(lo, hi, count)]
    for r in rows:
        series[(r["op"], r["dist"], r["src"], r["dst_mode"], r["method"])].append(
            (float(r["bin_lo"]), float(r["bin_hi"]), int(r["count"])))
    written = []
    for op in sorted({k[0] for k in series}):
        for dist in sorted({k[1] for k in series if k[0] == op}):
            keys = [k for k in series if k[0] == op and k[1] == dist]
            srcs = ordered({k[2] for k in keys}, SRC_ORDER)
            dsts = ordered({k[3] for k in keys}, ["dst16", "dst32"])
            fig, axes = panel_grid(len(srcs), len(dsts), title(op, dist))
            for i, src in enumerate(srcs):
                for j, dst in enumerate(dsts):
                    ax = axes[i][j]
                    for m in ordered({k[4] for k in keys if k[2] == src and k[3] == dst}, method_order):
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
                        pct = 100 * exact / total
                        share = f"{pct:.0f}" if pct >= 10 else f"{pct:.2g}"
                        label = m + (f" ({share}% exact or < 2^-40)" if exact else "")
                        ax.plot(xs, ys, "--" if m in REFERENCES else "-", color=colour(m), label=label, linewidth=1.2)
                    ax.set_title(panel_title(op, src, dst))
                    ax.set_xlim(-36, 4)
                    ax.set_xlabel("log2(relative error)")
                    ax.set_ylabel("fraction of results")
                    ax.grid(alpha=0.3)
                    ax.legend(fontsize=7, loc="upper left")
            written.append(save(fig, out_dir, f"errors_{op.lower()}_{dist}.png"))
    return written


# Each method's line colour: the IEEE references', then those the engines' modules name (their
# COLOURS), then a palette slot per further method, so a method has one colour in every plot of a run.
METHOD_COLOURS = dict(REFERENCE_COLOURS)


def colour(method):
    return METHOD_COLOURS.setdefault(method, PALETTE[(len(METHOD_COLOURS) - len(REFERENCE_COLOURS)) % len(PALETTE)])


def plot_cross_engines(rows, out_dir):
    """Grouped bars: one group per row of audit.md's cross-engine table, one bar per source format."""
    if not rows:
        return []
    dists = ordered({r["dist"] for r in rows}, DIST_ORDER)
    srcs = ordered({r["src"] for r in rows}, SRC_ORDER)
    src_colours = dict(zip(SRC_ORDER, ["#1f77b4", "#ff7f0e", "#2ca02c"]))
    # The groups in the order the CSV lists them (each engine's in its own order), one bar per line.
    labels, bar = [], {}
    for r in rows:
        label = r["row"].replace(" | ", " ")
        if label not in labels:
            labels.append(label)
        bar.setdefault((label, r["src"], r["dist"]), r)
    fig, axes = panel_grid(len(dists), 1, "Element-wise multiply and add across engines, same operands, "
                                          "against MPFR: effective bits (median; tick: 99th percentile)")
    for i, dist in enumerate(dists):
        ax = axes[i][0]
        shown = [label for label in labels if any((label, s, dist) in bar for s in srcs)]
        width = 0.8 / max(1, len(srcs))
        for j, src in enumerate(srcs):
            xs, med, p99 = [], [], []
            for x, label in enumerate(shown):
                r = bar.get((label, src, dist))
                if r:
                    xs.append(x + (j - (len(srcs) - 1) / 2) * width)
                    med.append(min(float(r["bits"]), 30))
                    p99.append(min(float(r["bits_p99"]), 30))
            if xs:
                ax.bar(xs, med, width=width, color=src_colours.get(src, "#7f7f7f"), label=src)
                ax.plot(xs, p99, "_", color="black", markersize=8)
        ax.set_xticks(range(len(shown)))
        ax.set_xticklabels(shown, rotation=35, ha="right", fontsize=7)
        ax.set_ylabel("bits (capped at 30 = exact)")
        ax.set_title(dist)
        ax.grid(alpha=0.3, axis="y")
        ax.legend(fontsize=7)
    fig.set_size_inches(11, 4.6 * len(dists))
    return [save(fig, out_dir, "cross_engines.png")]


def engine_modules():
    """Each engine's plots.py: installed beside this script, or in the source tree's engine folders."""
    installed = sorted(glob.glob(os.path.join(HERE, "plot_audit.d", "*.py")))
    found = [(os.path.splitext(os.path.basename(p))[0], p) for p in installed]
    if not found:
        sources = sorted(glob.glob(os.path.join(HERE, "..", "refmodel", "engines", "*", "audit", "plots.py")))
        found = [(os.path.basename(os.path.dirname(os.path.dirname(p))), p) for p in sources]
    modules = []
    for name, path in found:
        spec = importlib.util.spec_from_file_location(f"plot_audit_{name}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        modules.append(module)
    return modules


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out_dir = argv[1]
    try:
        tables = {"error_hist": read_csv(os.path.join(out_dir, "error_hist.csv")),
                  "bits_vs_k": read_csv(os.path.join(out_dir, "bits_vs_k.csv"))}
    except OSError as e:
        print(f"plot_audit.py: {e}", file=sys.stderr)
        return 2
    cross_path = os.path.join(out_dir, "cross_engines.csv")
    tables["cross_engines"] = read_csv(cross_path) if os.path.exists(cross_path) else []
    kit = sys.modules[__name__]
    modules = engine_modules()
    for module in modules:
        METHOD_COLOURS.update(getattr(module, "COLOURS", {}))
    written = []
    for module in modules:
        written += module.plots(kit, tables, out_dir)
    unclaimed = [r for r in tables["error_hist"] if not any(m.claims(r["op"]) for m in modules)]
    written += error_histograms(unclaimed, out_dir,
                                lambda op, dist: f"{op}, {dist} inputs: distribution of log2(relative error)",
                                lambda op, src, dst: f"{src} sources, {dst}", REFERENCES, colour)
    written += plot_cross_engines(tables["cross_engines"], out_dir)
    for name in written:
        print(f"plot_audit.py: wrote {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
