"""The AMX plots of `tmu audit --plots` (scripts/plot_audit.py loads this module; audit.md lists
the files), when the audit ran the AMX rows (op MATFP):
  errors_matfp_<dist>.png  the distribution of log2(relative error) of each matfp mode next to its two
                           IEEE references, K = 1
  bits_vs_k_engines.png    effective bits versus K: Tensix MVMUL (FP32 Dst, each fidelity) beside the
                           AMX mode on the same input stream; one row of panels
                           per distribution
"""
from collections import defaultdict

AMX_COLOUR = "#9467bd"
# Each mode and the source format of the MVMUL input stream it reads (rounded to the mode's type).
STREAMS = {"AMX bf16->f32": "BF16", "AMX f16->f32": "FP16", "AMX f32": "TF32"}
MODES = list(STREAMS)
COLOURS = {mode: AMX_COLOUR for mode in MODES}


def claims(op):
    return op == "MATFP"


def plot_engines(kit, rows, out_dir):
    mvmul = defaultdict(list)  # (dist, src, method) -> [(k, bits)], FP32 Dst, without the IEEE references
    amx = defaultdict(list)    # (dist, stream, mode) -> [(k, bits)]
    methods = []
    for r in rows:
        point = (int(r["k"]), float(r["bits"]))
        if r["op"] == "MVMUL" and r["dst_mode"] == "dst32" and r["method"] not in kit.REFERENCES:
            mvmul[(r["dist"], r["src"], r["method"])].append(point)
            if r["method"] not in methods:
                methods.append(r["method"])
        elif r["op"] == "MATFP" and r["method"] not in kit.REFERENCES:
            amx[(r["dist"], STREAMS.get(r["method"], r["src"]), r["method"])].append(point)
    if not amx:
        return []
    dists = kit.ordered({k[0] for k in amx}, kit.DIST_ORDER)
    pairs = kit.ordered({(k[1], k[2]) for k in amx}, [(s, m) for s in kit.SRC_ORDER for m in MODES])
    fig, axes = kit.panel_grid(len(dists), len(pairs),
                               "Effective bits (-log2 median relative error) vs K: "
                               "Tensix MVMUL (FP32 Dst) beside AMX matfp (f32 Z), same input streams")
    for i, dist in enumerate(dists):
        for j, (src, mode) in enumerate(pairs):
            ax = axes[i][j]
            for m in methods:
                points = sorted(mvmul.get((dist, src, m), []))
                if points:
                    ax.plot([k for k, _ in points], [min(b, 30) for _, b in points], "-", marker=".",
                            color=kit.colour(m), label=f"Tensix {src} {m}", linewidth=1.2)
            points = sorted(amx.get((dist, src, mode), []))
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
    return [kit.save(fig, out_dir, "bits_vs_k_engines.png")]


def plots(kit, tables, out_dir):
    hist = [r for r in tables["error_hist"] if claims(r["op"])]
    written = kit.error_histograms(
        hist, out_dir, lambda op, dist: f"{op} (AMX) 32x32 tile matmul (K = 1), {dist} inputs: "
                                        "distribution of log2(relative error)",
        lambda op, src, dst: f"{src} sources, f32 Z", MODES + kit.REFERENCES, kit.colour)
    return written + plot_engines(kit, tables["bits_vs_k"], out_dir)
