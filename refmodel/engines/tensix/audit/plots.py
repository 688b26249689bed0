"""The Tensix plots of `tmu audit --plots` (scripts/plot_audit.py loads this module; audit.md lists
the files):
  errors_<op>_<dist>.png  MVMUL (K = 1), ELWMUL and each MVMUL-L1-<format>: the distribution of
                          log2(relative error) per fidelity level next to the two IEEE references;
                          one panel per source format x Dst mode
  bits_vs_k_<dist>.png    MVMUL: effective bits (-log2 median relative error) versus K
  packed.png              with MVMUL-L1-<format> ops: effective bits at K = 1 per fidelity, the FP32
                          Dst result beside the same result packed to each L1 format and read back;
                          one panel per distribution x source format
"""
from collections import defaultdict

FIDELITIES = ["LoFi", "HiFi2", "HiFi3", "HiFi4"]
COLOURS = {"LoFi": "#d62728", "HiFi2": "#ff7f0e", "HiFi3": "#2ca02c", "HiFi4": "#1f77b4"}
DST_LABEL = {"dst16": "16-bit Dst", "dst32": "FP32 Dst"}
PACKED_PREFIX = "MVMUL-L1-"


def claims(op):
    return op in ("MVMUL", "ELWMUL") or op.startswith(PACKED_PREFIX)


def _what(op):
    if op.startswith(PACKED_PREFIX):
        return f"32x32 tile matmul (K = 1), FP32 Dst packed to L1 {op[len(PACKED_PREFIX):]}"
    return "32x32 tile matmul (K = 1)" if op == "MVMUL" else "element-wise multiply"


def plot_bits_vs_k(kit, rows, out_dir):
    series = defaultdict(list)  # (dist, src, dst, method) -> [(k, bits)]
    for r in rows:
        if r["op"] == "MVMUL":
            series[(r["dist"], r["src"], r["dst_mode"], r["method"])].append((int(r["k"]), float(r["bits"])))
    written = []
    for dist in sorted({k[0] for k in series}):
        keys = [k for k in series if k[0] == dist]
        srcs = kit.ordered({k[1] for k in keys}, kit.SRC_ORDER)
        dsts = kit.ordered({k[2] for k in keys}, ["dst16", "dst32"])
        fig, axes = kit.panel_grid(len(srcs), len(dsts),
                                   f"MVMUL, {dist} inputs: effective bits (-log2 median relative error) vs K")
        for i, src in enumerate(srcs):
            for j, dst in enumerate(dsts):
                ax = axes[i][j]
                for m in kit.ordered({k[3] for k in keys if k[1] == src and k[2] == dst}, FIDELITIES + kit.REFERENCES):
                    points = sorted(series[(dist, src, dst, m)])
                    ax.plot([k for k, _ in points], [min(b, 30) for _, b in points], "--" if m in kit.REFERENCES else "-",
                            marker=".", color=kit.colour(m), label=m, linewidth=1.2)
                ax.set_xscale("log", base=2)
                ax.set_title(f"{src} sources, {DST_LABEL.get(dst, dst)}")
                ax.set_xlabel("K (tiles of 32 accumulated; inner dimension 32K)")
                ax.set_ylabel("bits (capped at 30 = exact)")
                ax.grid(alpha=0.3)
        axes[0][0].legend(fontsize=8)
        written.append(kit.save(fig, out_dir, f"bits_vs_k_{dist}.png"))
    return written


def plot_packed(kit, rows, out_dir):
    """Bars per fidelity: MVMUL's FP32 Dst result, then each L1 format it was packed to (K = 1)."""
    bits = {}  # (dist, src, result, method) -> median bits; result "FP32 Dst" or "L1 <format>"
    for r in rows:
        if r["k"] != "1" or r["dst_mode"] != "dst32" or r["method"] not in FIDELITIES:
            continue
        if r["op"] == "MVMUL":
            bits[(r["dist"], r["src"], "FP32 Dst", r["method"])] = float(r["bits"])
        elif r["op"].startswith(PACKED_PREFIX):
            bits[(r["dist"], r["src"], "L1 " + r["op"][len(PACKED_PREFIX):], r["method"])] = float(r["bits"])
    results = kit.ordered({k[2] for k in bits}, ["FP32 Dst", "L1 FP16", "L1 BF16", "L1 BFP8"])
    if len(results) < 2:
        return []
    dists = kit.ordered({k[0] for k in bits}, kit.DIST_ORDER)
    srcs = kit.ordered({k[1] for k in bits}, kit.SRC_ORDER)
    fig, axes = kit.panel_grid(len(dists), len(srcs), "MVMUL from L1 to L1, K = 1: effective bits of the FP32 Dst "
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
    return [kit.save(fig, out_dir, "packed.png")]


def plots(kit, tables, out_dir):
    hist = [r for r in tables["error_hist"] if claims(r["op"])]
    written = kit.error_histograms(
        hist, out_dir, lambda op, dist: f"{op} {_what(op)}, {dist} inputs: distribution of log2(relative error)",
        lambda op, src, dst: f"{src} sources, {DST_LABEL.get(dst, dst)}", FIDELITIES + kit.REFERENCES, kit.colour)
    return written + plot_bits_vs_k(kit, tables["bits_vs_k"], out_dir) + plot_packed(kit, tables["bits_vs_k"], out_dir)
