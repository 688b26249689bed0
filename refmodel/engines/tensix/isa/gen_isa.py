#!/usr/bin/env python3
"""Generate tmu's instruction tables from the one ISA table, refmodel/engines/tensix/isa/tensix_isa.json.

Outputs (each only when asked for):
  --cpp FILE   C++ include with the Op/Field enums and the per-architecture decode tables (with timing)
  --sv FILE    SystemVerilog package with opcodes, field positions and timing for the RTL
The table is validated first: its shape against the JSON Schema next to it (tensix_isa.schema.json:
unknown keys, wrong types, a field name that is not CamelCase), then overlapping fields, fields over the
opcode byte, duplicate opcodes or mnemonics, a conditional maximum that names a missing field, and an
instruction whose field names differ between architectures. Every error names the instruction and the
field. Table format: docs/isa-table.md.
"""
import argparse
import json
import os
import sys

import jsonschema

ARCHES = ("blackhole", "wormhole")
UNITS = ("MatrixUnit", "ScalarUnit", "Unpacker", "Packer")


def fail(msg):
    sys.exit(f"gen_isa.py: {msg}")


def load(path, schema_path):
    try:
        with open(path) as f:
            table = json.load(f)
        with open(schema_path) as f:
            schema = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        fail(f"{e.filename if isinstance(e, OSError) else path}: {e}")
    # The shape (keys, types, names, ranges of single values) is the schema's; what relates several
    # values is checked below.
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(table))
    if error is not None:
        fail(f"{path}: {place(table, error.absolute_path)}: {error.message}")
    per_arch = {a: [] for a in ARCHES}
    seen = {a: {"op": {}, "mn": set()} for a in ARCHES}
    for insn in table["instructions"]:
        mn = insn["mnemonic"]
        opcode = int(insn["opcode"], 16)
        if not 0 <= opcode <= 0xFF:
            fail(f"{path}: {mn}: opcode {insn['opcode']} is not one byte")
        fields = insn.get("fields", {})
        arches = insn.get("arches", list(ARCHES))
        for arch in arches:
            flist = fields.get(arch, fields.get("both"))
            if flist is None:
                fail(f"{path}: {mn}: no fields for {arch} (give 'both' or '{arch}')")
            used = 0xFF000000
            parsed = []
            for fld in flist:
                name, lo, width = fld["name"], fld["lo"], fld["width"]
                if lo + width > 24:
                    fail(f"{path}: {mn}.{name} ({arch}): bits {lo + width - 1}:{lo} reach past bit 23")
                mask = ((1 << width) - 1) << lo
                if used & mask:
                    fail(f"{path}: {mn}.{name} ({arch}): overlaps another field")
                used |= mask
                fmax = fld.get("max", (1 << width) - 1)
                if fmax >= (1 << width):
                    fail(f"{path}: {mn}.{name} ({arch}): max {fmax} does not fit in {width} bits")
                parsed.append((name, lo, width, fmax, parse_max_when(path, mn, arch, name, fld, width)))
            names = [f[0] for f in parsed]
            if len(set(names)) != len(names):
                fail(f"{path}: {mn} ({arch}): a field name appears twice")
            for name, _, _, _, cond in parsed:
                if cond and cond[0] not in names:
                    fail(f"{path}: {mn}.{name} ({arch}): max_when names unknown field {cond[0]}")
            if opcode in seen[arch]["op"]:
                fail(f"{path}: {mn}: opcode {opcode:#04x} already used by {seen[arch]['op'][opcode]} on {arch}")
            if mn in seen[arch]["mn"]:
                fail(f"{path}: {mn}: listed twice for {arch}")
            seen[arch]["op"][opcode] = mn
            seen[arch]["mn"].add(mn)
            reserved = (~used) & 0x00FFFFFF
            per_arch[arch].append(dict(mn=mn, opcode=opcode, unit=insn["unit"],
                                       summary=insn.get("summary", ""), fields=parsed, reserved=reserved,
                                       issue_cycles=insn["issue_cycles"], latency=insn["latency"]))
        # One execution function serves every architecture, so a meaning keeps its name everywhere;
        # arch_fields lists the fields whose meaning exists on some architectures only.
        arch_only = set(insn.get("arch_fields", []))
        name_sets = {a: {f[0] for i in per_arch[a] if i["mn"] == mn for f in i["fields"]} - arch_only for a in arches}
        listed = set().union(*({f[0] for i in per_arch[a] if i["mn"] == mn for f in i["fields"]} for a in arches))
        if arch_only - listed:
            fail(f"{path}: {mn}: arch_fields names fields no architecture has: {sorted(arch_only - listed)}")
        if len({frozenset(v) for v in name_sets.values()}) > 1:
            fail(f"{path}: {mn}: field names differ between architectures: "
                 + "; ".join(f"{a}: {sorted(v)}" for a, v in name_sets.items()))
    return per_arch


def place(table, where):
    """A schema error's position as the other messages name places: 'MVMUL.DstRow (blackhole).lo',
    'MVMUL.unit', or the JSON path where no instruction is involved."""
    where = list(where)
    if len(where) < 2 or where[0] != "instructions":
        return "/".join(str(w) for w in where) or "top level"

    def label(obj, key, fallback):
        value = obj.get(key) if isinstance(obj, dict) else None
        return value if isinstance(value, str) else fallback

    insn = table["instructions"][where[1]]
    mn = label(insn, "mnemonic", f"instruction {where[1]}")
    rest = where[2:]
    if len(rest) >= 3 and rest[0] == "fields":
        fld = insn["fields"][rest[1]][rest[2]]
        text = f"{mn}.{label(fld, 'name', f'field {rest[2]}')} ({rest[1]})"
        rest = rest[3:]
    else:
        text = mn
    return text + "".join(f".{r}" for r in rest)


def parse_max_when(path, mn, arch, name, fld, width):
    """A tighter maximum that applies only while another field holds a given value, or None."""
    cond = fld.get("max_when")
    if cond is None:
        return None
    cmax = cond["max"]
    if cmax >= (1 << width):
        fail(f"{path}: {mn}.{name} ({arch}): max_when max {cmax} does not fit in {width} bits")
    return (cond["field"], cond["equals"], cmax)


BANNER = "GENERATED by refmodel/engines/tensix/isa/gen_isa.py from refmodel/engines/tensix/isa/tensix_isa.json. Do not edit."


def emit_cpp(per_arch, out):
    ops = sorted({i["mn"] for a in ARCHES for i in per_arch[a]})
    fields = sorted({f[0] for a in ARCHES for i in per_arch[a] for f in i["fields"]})
    lines = [f"// {BANNER}", "#ifdef TMU_ISA_ENUMS",
             "enum class Op : uint8_t {"]
    lines += [f"  {op}," for op in ops]
    lines += ["};", f"inline constexpr unsigned kNumOps = {len(ops)};",
              "enum class Field : uint8_t {"]
    lines += [f"  {f}," for f in fields]
    lines += ["};", f"inline constexpr unsigned kNumFields = {len(fields)};",
              "inline constexpr const char* kOpNames[] = {" + ", ".join(f'"{o}"' for o in ops) + "};",
              "inline constexpr const char* kFieldNames[] = {" + ", ".join(f'"{f}"' for f in fields) + "};",
              "#endif", "#ifdef TMU_ISA_TABLES"]
    for arch in ARCHES:
        for insn in per_arch[arch]:
            lines.append(f"inline constexpr FieldSpec k_{arch}_{insn['mn']}_fields[] = {{")
            for name, lo, width, fmax, cond in insn["fields"]:
                when_field, when_value, when_max = cond if cond else ("kNoField", 0, 0)
                lines.append(f"  {{Field::{name}, {lo}, {width}, {fmax}u, "
                             f"Field::{when_field}, {when_value}u, {when_max}u}},")
            if not insn["fields"]:
                lines.append("  {Field::kNoField, 0, 0, 0u, Field::kNoField, 0u, 0u},")
            lines.append("};")
        lines.append(f"inline constexpr InsnSpec k_{arch}_insns[] = {{")
        for insn in sorted(per_arch[arch], key=lambda i: i["opcode"]):
            nf = len(insn["fields"])
            summary = insn["summary"].replace("\\", "\\\\").replace('"', '\\"')
            lines.append(f"  {{Op::{insn['mn']}, \"{insn['mn']}\", {insn['opcode']:#04x}, Unit::{insn['unit']}, "
                         f"k_{arch}_{insn['mn']}_fields, {nf}, {insn['reserved']:#08x}u, \"{summary}\", "
                         f"{insn['issue_cycles']}, {insn['latency']}}},")
        lines.append("};")
    lines.append("#endif")
    text = "\n".join(lines) + "\n"
    # kNoField is a sentinel used only for instructions without fields.
    text = text.replace("enum class Field : uint8_t {\n", "enum class Field : uint8_t {\n  kNoField,\n", 1)
    text = text.replace('kFieldNames[] = {', 'kFieldNames[] = {"-", ', 1)
    text = text.replace(f"kNumFields = {len(fields)};", f"kNumFields = {len(fields) + 1};", 1)
    with open(out, "w") as f:
        f.write(text)


def emit_sv(per_arch, out):
    """The RTL's view of the table: per-architecture constants (BH_/WH_ prefix) for every instruction,
    then unprefixed aliases for whatever both architectures encode identically, so that a decoder for
    an arch-independent instruction (SETRWC, the GPR ops) names one constant rather than picking an
    architecture. The file is checked in as rtl/tmu_isa_pkg.sv; ctest rtl.isa_pkg_current regenerates
    it and fails on any difference."""
    lines = [f"// {BANNER}",
             "// Regenerate: refmodel/engines/tensix/isa/gen_isa.py --table refmodel/engines/tensix/isa/tensix_isa.json --sv rtl/tmu_isa_pkg.sv",
             "//",
             "// <ARCH>_OP_<MN>: opcode (word bits 31:24); <ARCH>_<MN>_RESERVED: bits 23:0 no field uses;",
             "// <ARCH>_<MN>_<Field>_LO/_W/_MAX: lowest bit, width, largest allowed value. ARCH is BH",
             "// (Blackhole) or WH (Wormhole); names without a prefix hold on both architectures.",
             "// IDX_<MN>: the instruction index tmu_decode gives; ISSUE_CYCLES and LATENCY are indexed by it.",
             "// The package is a table and every design reads only part of it, hence the waiver.",
             "/* verilator lint_off UNUSEDPARAM */",
             "package tmu_isa_pkg;",
             ""]

    def field_lines(prefix, name, lo, width, fmax):
        return [f"  localparam int unsigned {prefix}_{name}_LO = {lo};",
                f"  localparam int unsigned {prefix}_{name}_W = {width};",
                f"  localparam int unsigned {prefix}_{name}_MAX = {fmax};"]

    for arch in ARCHES:
        pfx = "BH" if arch == "blackhole" else "WH"
        lines.append(f"  // ---- {arch} ----")
        for insn in sorted(per_arch[arch], key=lambda i: i["opcode"]):
            lines.append(f"  localparam logic [7:0] {pfx}_OP_{insn['mn']} = 8'h{insn['opcode']:02x};")
            lines.append(f"  localparam logic [23:0] {pfx}_{insn['mn']}_RESERVED = 24'h{insn['reserved']:06x};")
            for name, lo, width, fmax, _ in insn["fields"]:
                lines += field_lines(f"{pfx}_{insn['mn']}", name, lo, width, fmax)
        lines.append("")

    lines.append("  // ---- identical on both architectures ----")
    by_arch = {a: {i["mn"]: i for i in per_arch[a]} for a in ARCHES}
    common = sorted(set(by_arch[ARCHES[0]]).intersection(*(set(by_arch[a]) for a in ARCHES[1:])),
                    key=lambda mn: by_arch[ARCHES[0]][mn]["opcode"])
    for mn in common:
        variants = [by_arch[a][mn] for a in ARCHES]
        first = variants[0]
        if all(v["opcode"] == first["opcode"] for v in variants):
            lines.append(f"  localparam logic [7:0] OP_{mn} = 8'h{first['opcode']:02x};")
        if all(v["reserved"] == first["reserved"] for v in variants):
            lines.append(f"  localparam logic [23:0] {mn}_RESERVED = 24'h{first['reserved']:06x};")
        for name, lo, width, fmax, _ in first["fields"]:
            same = all(any(f[:4] == (name, lo, width, fmax) for f in v["fields"]) for v in variants[1:])
            if same:
                lines += field_lines(mn, name, lo, width, fmax)
    lines.append("")
    lines.append("  // ---- instruction index (tmu_decode idx_o), the same on both architectures ----")
    mns = all_mnemonics(per_arch)
    idx_w = max(1, (len(mns) - 1).bit_length())
    lines.append(f"  localparam int unsigned NumInsns = {len(mns)};")
    lines.append(f"  localparam int unsigned IdxW = {idx_w};")
    for n, mn in enumerate(mns):
        lines.append(f"  localparam logic [IdxW-1:0] IDX_{mn} = {idx_w}'d{n};")
    lines += timing_lines(per_arch, mns)
    lines += ["endpackage", "/* verilator lint_on UNUSEDPARAM */"]
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


def timing_lines(per_arch, mns):
    """Issue cycles and latency by instruction index, as flat vectors (Yosys 0.23 reads no arrays of
    arrays): entry IDX_<MN> of ISSUE_CYCLES is ISSUE_CYCLES[IDX_<MN>*IssueCyclesW +: IssueCyclesW].
    The timing belongs to the instruction, not to an architecture, so one table serves both."""
    timing = {i["mn"]: (i["issue_cycles"], i["latency"]) for a in ARCHES for i in per_arch[a]}
    lines = ["", "  // ---- timing by instruction index (refmodel/engines/tensix/isa/tensix_isa.json timing_source) ----",
             "  // ISSUE_CYCLES: cycles the instruction holds its unit (1 / throughput); LATENCY: cycles",
             "  // until its results can be read. Entry i is bits [i*W +: W]."]
    for name, width_name, which in (("ISSUE_CYCLES", "IssueCyclesW", 0), ("LATENCY", "LatencyW", 1)):
        width = max(timing[mn][which] for mn in mns).bit_length()
        lines += [f"  localparam int unsigned {width_name} = {width};",
                  f"  localparam logic [NumInsns*{width_name}-1:0] {name} = {{"]
        # A concatenation lists its most significant part first: the highest index leads.
        for n, mn in reversed(list(enumerate(mns))):
            sep = "," if n else " "
            lines.append(f"    {width}'d{timing[mn][which]}{sep}  // {mn}")
        lines.append("  };")
    return lines


def emit_sv_decode(per_arch, out):
    """The RTL decoder, generated from the same table: one module, tmu_decode, that names the
    instruction (an index shared by both architectures, tmu_isa_pkg::IDX_<MN>), says whether the word
    is legal on the architecture (known opcode, no reserved bit, every field within its maximum,
    including the conditional maxima) and extracts every field by name. A field an instruction does
    not have reads as zero. Checked in as rtl/tmu_decode.sv; ctest rtl.isa_pkg_current regenerates it."""
    mnemonics = all_mnemonics(per_arch)
    widths = {}
    for arch in ARCHES:
        for insn in per_arch[arch]:
            for name, _, width, _, _ in insn["fields"]:
                widths[name] = max(widths.get(name, 0), width)
    names = sorted(widths)
    lines = [f"// {BANNER}",
             "// Regenerate: refmodel/engines/tensix/isa/gen_isa.py --table refmodel/engines/tensix/isa/tensix_isa.json --sv-decode rtl/tmu_decode.sv",
             "//",
             "// tmu_decode: instruction word -> instruction index (tmu_isa_pkg::IDX_<MN>), legality on the",
             "// architecture (the refmodel's decode: unknown opcode, reserved bit set or a field above its",
             "// maximum is a decode error) and every field by its ISA name (zero where the instruction has",
             "// no such field). Purely combinational.",
             "module tmu_decode (",
             "  input  logic [31:0]          word_i,",
             "  input  tmu_pkg::arch_e       arch_i,",
             "  output logic                 known_o,   // the opcode names an instruction of arch_i",
             "  output logic                 legal_o,   // known, and no reserved bit or field out of range",
             "  output logic                 scalar_o,  // a Scalar Unit (GPR) instruction",
             "  output logic [tmu_isa_pkg::IdxW-1:0] idx_o,"]
    for i, name in enumerate(names):
        sep = "," if i + 1 < len(names) else ""
        lines.append(f"  output logic [{widths[name] - 1}:0] f_{name}_o{sep}")
    lines += [");", "", "  logic [7:0]  opcode;", "  logic [23:0] operands;", "",
              "  always_comb begin", "    opcode   = word_i[31:24];", "    operands = word_i[23:0];",
              "    known_o  = 1'b0;", "    legal_o  = 1'b0;", "    scalar_o = 1'b0;", "    idx_o    = '0;"]
    for name in names:
        lines.append(f"    f_{name}_o = '0;")
    for arch in ARCHES:
        enum = "ARCH_BLACKHOLE" if arch == "blackhole" else "ARCH_WORMHOLE"
        lines.append(f"    if (arch_i == tmu_pkg::{enum}) begin")
        lines.append("      unique case (opcode)")
        for insn in sorted(per_arch[arch], key=lambda i: i["opcode"]):
            mn = insn["mn"]
            lines.append(f"        8'h{insn['opcode']:02x}: begin  // {mn}")
            lines.append("          known_o  = 1'b1;")
            lines.append(f"          idx_o    = tmu_isa_pkg::IDX_{mn};")
            if insn["unit"] == "ScalarUnit":
                lines.append("          scalar_o = 1'b1;")
            checks = [f"(operands & 24'h{insn['reserved']:06x}) == 24'h0"]
            for name, lo, width, fmax, cond in insn["fields"]:
                lines.append(f"          f_{name}_o = {widths[name]}'(operands[{lo + width - 1}:{lo}]);")
                if fmax < (1 << width) - 1:
                    checks.append(f"operands[{lo + width - 1}:{lo}] <= {width}'d{fmax}")
                if cond:
                    cf = next(f for f in insn["fields"] if f[0] == cond[0])
                    checks.append(f"(operands[{cf[1] + cf[2] - 1}:{cf[1]}] != {cf[2]}'d{cond[1]} || "
                                  f"operands[{lo + width - 1}:{lo}] <= {width}'d{cond[2]})")
            lines.append("          legal_o  = " + (" &&\n                     ".join(checks)) + ";")
            lines.append("        end")
        lines += ["        default: ;", "      endcase", "    end"]
    lines += ["  end", "", "endmodule"]
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


def all_mnemonics(per_arch):
    """Every mnemonic of any architecture, in a fixed order: the decoder's instruction index."""
    return sorted({i["mn"] for a in ARCHES for i in per_arch[a]})


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--table", required=True)
    ap.add_argument("--cpp")
    ap.add_argument("--sv")
    ap.add_argument("--sv-decode")
    ap.add_argument("--schema", help="JSON Schema of the table (default: tensix_isa.schema.json beside it)")
    args = ap.parse_args()
    schema = args.schema or os.path.join(os.path.dirname(os.path.abspath(args.table)), "tensix_isa.schema.json")
    per_arch = load(args.table, schema)
    if args.cpp:
        emit_cpp(per_arch, args.cpp)
    if args.sv:
        emit_sv(per_arch, args.sv)
    if args.sv_decode:
        emit_sv_decode(per_arch, args.sv_decode)


if __name__ == "__main__":
    main()
