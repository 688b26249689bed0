#!/usr/bin/python3
"""Summarise the JSON state `tmu run` prints (read from stdin): instruction and cycle counts, the first
Dst32b rows as FP32 values (or, with a 16-bit Dst, the first valid rows as raw bits), and the non-zero
GPRs. Needs `--show gprs,config,dst,dst32`."""
import json
import struct
import sys


def fp32_from_dst32(word):
    """Dst32b layout (Dst.md): sign | mantissa 22:16 | exponent | mantissa 15:0."""
    v = int(word, 16)
    hi, lo = v >> 16, v & 0xFFFF
    ieee = ((hi & 0x8000) << 16) | ((hi & 0xFF) << 23) | (((hi >> 8) & 0x7F) << 16) | lo
    return struct.unpack("<f", struct.pack("<I", ieee))[0]


def main():
    state = json.load(sys.stdin)
    print("   {} instructions, {} Matrix Unit issue cycles, {} Scalar Unit cycles".format(
        state["instructions"], state["matrix_unit_cycles"], state["scalar_unit_cycles"]))
    fp32_dst = any(c.get("ALU_ACC_CTRL_Fp32_enabled") for c in state.get("config", []))
    if fp32_dst:
        rows = state.get("dst32", {})
        for r in sorted(rows, key=int)[:4]:
            values = " ".join("{:g}".format(fp32_from_dst32(w)) for w in rows[r]["bits"][:8])
            print("   Dst32b[{:>2}] = {} ...".format(r, values))
    else:
        rows = {r: v for r, v in state.get("dst", {}).items() if v["valid"]}
        for r in sorted(rows, key=int)[:4]:
            print("   DstBits[{:>2}] = {} ...".format(r, " ".join(rows[r]["bits"][:8])))
    for t, gprs in enumerate(state.get("gprs", [])):
        used = ["r{}={}".format(i, g) for i, g in enumerate(gprs) if g != "0x00000000"]
        if used:
            print("   thread {} GPRs: {}".format(t, " ".join(used)))


if __name__ == "__main__":
    main()
