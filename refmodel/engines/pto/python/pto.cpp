// tmu.pto: PTO's elementwise tile operations by name on numpy arrays. A tile is a 2-D array indexed
// [row, col] (the layout only orders the model's storage), with its element type taken from the dtype
// or named (bf16 travels as uint16 bit patterns), a layout and a valid region. The model
// (tmu/pto/ops.h execute, tmu/pto/cycles.h a2a3_cycles) does the work; its refusals are tmu.Error.
#include <fmt/format.h>

#include <cstring>
#include <string>
#include <vector>

#include "bindings.h"
#include "tmu/error.h"
#include "tmu/pto/cycles.h"
#include "tmu/pto/ops.h"
#include "tmu/pto/tile.h"

namespace tmu::python {

namespace {

// The element type of a numpy dtype when the caller names none (uint16 is u16: bf16 must be named).
std::optional<pto::ElemType> type_of_dtype(const py::dtype& d) {
  const char k = d.kind();
  const auto n = d.itemsize();
  if (k == 'f') return n == 4 ? std::optional(pto::ElemType::F32) : n == 2 ? std::optional(pto::ElemType::F16) : std::nullopt;
  if (k == 'i') {
    switch (n) {
      case 1: return pto::ElemType::I8;
      case 2: return pto::ElemType::I16;
      case 4: return pto::ElemType::I32;
      case 8: return pto::ElemType::I64;
    }
  }
  if (k == 'u') {
    switch (n) {
      case 1: return pto::ElemType::U8;
      case 2: return pto::ElemType::U16;
      case 4: return pto::ElemType::U32;
      case 8: return pto::ElemType::U64;
    }
  }
  return std::nullopt;
}

// The numpy dtype a tile of `t` comes back in: the type's own (f32 float32, f16 float16, bf16 uint16,
// f8e4m3 and f8e5m2 uint8 bit patterns).
py::dtype dtype_of_type(pto::ElemType t) {
  switch (t) {
    case pto::ElemType::F32: return py::dtype::of<float>();
    case pto::ElemType::F16: return py::dtype("float16");
    case pto::ElemType::BF16: return py::dtype::of<uint16_t>();
    case pto::ElemType::I8: return py::dtype::of<int8_t>();
    case pto::ElemType::U8: return py::dtype::of<uint8_t>();
    case pto::ElemType::I16: return py::dtype::of<int16_t>();
    case pto::ElemType::U16: return py::dtype::of<uint16_t>();
    case pto::ElemType::I32: return py::dtype::of<int32_t>();
    case pto::ElemType::U32: return py::dtype::of<uint32_t>();
    case pto::ElemType::I64: return py::dtype::of<int64_t>();
    case pto::ElemType::U64: return py::dtype::of<uint64_t>();
    case pto::ElemType::F8E4M3: case pto::ElemType::F8E5M2: return py::dtype::of<uint8_t>();  // numpy has no f8
  }
  return py::dtype::of<uint64_t>();
}

std::string type_names() {
  std::string s;
  for (auto t : pto::kAllElemTypes) s += (s.empty() ? "" : ", ") + std::string(pto::elem_name(t));
  return s;
}

// Lanes between a C-order numpy buffer of `w`-byte elements and the model's 64-bit lanes (zero-
// extended). One loop per width with a fixed-size copy, so the compiler turns each lane into one load
// and one store instead of a memcpy call of a run-time size per lane: at 64x64 f32
// this conversion, not the operation, was what a Python call spent its time on (bench/bench_python.py).
template <typename U>
void load_lanes_as(const uint8_t* bytes, pto::Tile& tile) {
  if (tile.layout == pto::Layout::RowMajor) {  // lane i is numpy's element i: one flat loop
    const size_t n = static_cast<size_t>(tile.rows) * tile.cols;
    for (size_t i = 0; i < n; ++i) {
      U v;
      std::memcpy(&v, bytes + i * sizeof(U), sizeof(U));
      tile.bits[i] = v;
    }
    return;
  }
  for (unsigned r = 0; r < tile.rows; ++r) {
    for (unsigned c = 0; c < tile.cols; ++c) {
      const size_t i = static_cast<size_t>(r) * tile.cols + c;  // numpy's C order
      U v;
      std::memcpy(&v, bytes + i * sizeof(U), sizeof(U));
      tile.bits[tile.offset(r, c)] = v;
    }
  }
}
template <typename U>
void store_lanes_as(const pto::Tile& tile, uint8_t* bytes) {
  if (tile.layout == pto::Layout::RowMajor) {
    const size_t n = static_cast<size_t>(tile.rows) * tile.cols;
    for (size_t i = 0; i < n; ++i) {
      const U v = static_cast<U>(tile.bits[i]);
      std::memcpy(bytes + i * sizeof(U), &v, sizeof(U));
    }
    return;
  }
  for (unsigned r = 0; r < tile.rows; ++r) {
    for (unsigned c = 0; c < tile.cols; ++c) {
      const size_t i = static_cast<size_t>(r) * tile.cols + c;
      const U v = static_cast<U>(tile.bits[tile.offset(r, c)]);
      std::memcpy(bytes + i * sizeof(U), &v, sizeof(U));
    }
  }
}
void load_lanes(const uint8_t* bytes, pto::Tile& tile, unsigned w) {
  switch (w) {
    case 1: return load_lanes_as<uint8_t>(bytes, tile);
    case 2: return load_lanes_as<uint16_t>(bytes, tile);
    case 4: return load_lanes_as<uint32_t>(bytes, tile);
    default: return load_lanes_as<uint64_t>(bytes, tile);
  }
}
void store_lanes(const pto::Tile& tile, uint8_t* bytes, unsigned w) {
  switch (w) {
    case 1: return store_lanes_as<uint8_t>(tile, bytes);
    case 2: return store_lanes_as<uint16_t>(tile, bytes);
    case 4: return store_lanes_as<uint32_t>(tile, bytes);
    default: return store_lanes_as<uint64_t>(tile, bytes);
  }
}

// One tile argument: an array-like (arrays.h), or an object with .data, .type, .layout, .valid
// (tmu.pto.Tile). A torch.bfloat16 tensor is a bf16 tile of its patterns.
pto::Tile to_tile(py::handle obj, const std::string& where, const std::string& arg, py::dtype& dtype) {
  py::object data = py::reinterpret_borrow<py::object>(obj), type = py::none(), layout = py::none(), valid = py::none();
  std::string data_arg = arg;
  if (py::hasattr(obj, "data") && py::hasattr(obj, "type") && py::hasattr(obj, "layout") && py::hasattr(obj, "valid") &&
      !py::isinstance<py::array>(obj)) {
    data = obj.attr("data"), type = obj.attr("type"), layout = obj.attr("layout"), valid = obj.attr("valid");
    data_arg = arg + ".data";
  }
  const InputArray in = input_array(data, where, data_arg, Bf16As::Bits, false, "a 2-D numpy array or a tmu.pto.Tile");
  py::array a = in.array;
  if (a.ndim() != 2) value_error(where, arg, fmt::format("expected a 2-D array (rows, cols), got {} dimensions", a.ndim()));
  if (in.bf16 && type.is_none()) type = py::str("bf16");
  pto::ElemType t;
  if (type.is_none()) {
    auto guess = type_of_dtype(a.dtype());
    if (!guess) type_error(where, arg, "no PTO element type has dtype " + dtype_name(a) + " (expected " + type_names() + ")");
    t = *guess;
  } else {
    if (!py::isinstance<py::str>(type)) type_error(where, arg + ".type", "expected an element type name: " + type_names());
    auto named = pto::elem_from_name(type.cast<std::string>());
    if (!named) value_error(where, arg + ".type", fmt::format("unknown element type '{}' (expected {})", type.cast<std::string>(), type_names()));
    t = *named;
    // The type's own dtype, or the unsigned integer of its width (bit patterns).
    const auto own = dtype_of_type(t);
    // torch has no unsigned integers wider than 8 bits: its signed ones carry the patterns.
    if (in.torch && !same_dtype(a.dtype(), own) && a.dtype().kind() == 'i' &&
        a.dtype().itemsize() * 8 == static_cast<py::ssize_t>(pto::width_bits(t))) {
      a = a.attr("view")(fmt::format("u{}", a.dtype().itemsize()));
    }
    const bool ok = same_dtype(a.dtype(), own) || (a.dtype().kind() == 'u' && a.dtype().itemsize() * 8 == static_cast<py::ssize_t>(pto::width_bits(t)));
    if (!ok) {
      type_error(where, arg, fmt::format("element type {} takes dtype {} (or uint{} bit patterns), got {}", pto::elem_name(t),
                                         py::str(py::handle(own)).cast<std::string>(), pto::width_bits(t), dtype_name(a)));
    }
  }
  if (a.dtype().itemsize() * 8 != static_cast<py::ssize_t>(pto::width_bits(t))) {
    type_error(where, arg, fmt::format("dtype {} is not {} bits wide", dtype_name(a), pto::width_bits(t)));
  }
  dtype = a.dtype();
  pto::Layout l = pto::Layout::RowMajor;
  if (!layout.is_none()) {
    if (!py::isinstance<py::str>(layout)) type_error(where, arg + ".layout", "expected 'row_major' or 'col_major'");
    l = pto::layout_from_name(layout.cast<std::string>());  // tmu.Error for a boxed or unknown layout
  }
  // The model's tiles hold at most kMaxTileElements lanes; a larger dimension is refused here, before
  // it could be narrowed to the model's 32-bit counts.
  const unsigned rows = dimension(a.shape(0), pto::kMaxTileElements, where, arg);
  const unsigned cols = dimension(a.shape(1), pto::kMaxTileElements, where, arg);
  unsigned vr = rows, vc = cols;
  if (!valid.is_none()) {
    if (!py::isinstance<py::tuple>(valid) && !py::isinstance<py::list>(valid)) {
      type_error(where, arg + ".valid", "expected (valid_rows, valid_cols) or None, got " + type_name(valid));
    }
    const auto pair = py::reinterpret_borrow<py::sequence>(valid);
    if (pair.size() != 2) type_error(where, arg + ".valid", fmt::format("expected (valid_rows, valid_cols), got {} items", pair.size()));
    vr = static_cast<unsigned>(uint_arg(pair[0], where, arg + ".valid[0]", UINT32_MAX));
    vc = static_cast<unsigned>(uint_arg(pair[1], where, arg + ".valid[1]", UINT32_MAX));
  }
  const py::array c = c_contiguous(a, where, data_arg);
  pto::Tile tile = pto::make_tile(t, rows, cols, l, vr, vc);  // the model's shape rules (tmu.BadInput)
  load_lanes(static_cast<const uint8_t*>(c.data()), tile, pto::width_bytes(t));
  return tile;
}

py::array from_tile(const pto::Tile& t, const py::dtype& dtype) {
  py::array out(dtype, std::vector<py::ssize_t>{t.rows, t.cols});
  store_lanes(t, static_cast<uint8_t*>(out.mutable_data()), pto::width_bytes(t.type));
  return out;
}

struct Call {
  pto::Op op;
  pto::Profile profile;
  pto::OpParams params;
  pto::Tile dst;
  std::vector<pto::Tile> srcs;
  py::dtype dst_dtype;
};

Call prepare(const std::string& where, const std::string& op, py::handle dst, py::handle srcs_obj,
             const py::object& variant, const py::object& cmp, const py::object& round, const py::object& saturation,
             bool a5_ieee = true) {
  auto o = pto::op_from_name(op);
  if (!o) value_error(where, "op", pto::unknown_operation(op));
  const std::string profile = variant.is_none() ? "cpusim" : str_arg(variant, where, "variant");
  auto p = pto::profile_from_name(profile);
  if (!p) value_error(where, "variant", fmt::format("unknown profile '{}' (expected 'cpusim', 'a2a3' or 'a5')", profile));
  pto::OpParams params;
  params.a5_ieee = a5_ieee;
  if (!cmp.is_none()) {
    auto c = pto::cmp_from_name(py::str(cmp).cast<std::string>());
    if (!c) value_error(where, "cmp", fmt::format("unknown compare mode '{}' (expected EQ, NE, LT, LE, GT or GE)", py::str(cmp).cast<std::string>()));
    params.cmp = *c;
  }
  if (!round.is_none()) {
    auto r = pto::round_from_name(py::str(round).cast<std::string>());
    if (!r) value_error(where, "round", fmt::format("unknown round mode '{}' (expected NONE, RINT, ROUND, FLOOR, CEIL, TRUNC or ODD)", py::str(round).cast<std::string>()));
    params.round = *r;
  }
  if (!saturation.is_none()) {
    const std::string s = py::str(saturation).cast<std::string>();
    if (s == "on" || s == "ON") params.saturation = pto::SaturationMode::On;
    else if (s == "off" || s == "OFF") params.saturation = pto::SaturationMode::Off;
    else value_error(where, "saturation", fmt::format("expected 'on', 'off' or None (the profile's default), got '{}'", s));
  }
  Call call{*o, *p, params, {}, {}, py::dtype::of<uint8_t>()};
  call.dst = to_tile(dst, where, "dst", call.dst_dtype);
  if (py::isinstance<py::str>(srcs_obj) || (!py::isinstance<py::list>(srcs_obj) && !py::isinstance<py::tuple>(srcs_obj))) {
    type_error(where, "srcs", "expected a list of tiles in the intrinsic's order, got " + type_name(srcs_obj));
  }
  const auto srcs = py::reinterpret_borrow<py::sequence>(srcs_obj);
  py::dtype ignored;
  for (size_t i = 0; i < srcs.size(); ++i) call.srcs.push_back(to_tile(srcs[i], where, fmt::format("srcs[{}]", i), ignored));
  return call;
}

}  // namespace

void bind_engine_pto(py::module_& parent) {
  auto m = parent.def_submodule("pto", "PTO elementwise tile operations.");
  m.def(
      "execute",
      [](const std::string& op, py::handle dst, py::handle srcs_obj, const py::object& variant, const py::object& cmp,
         const py::object& round, const py::object& saturation, bool a5_ieee) {
        Call c = prepare("tmu.pto.execute", op, dst, srcs_obj, variant, cmp, round, saturation, a5_ieee);
        std::vector<const pto::Tile*> ptrs;
        for (const auto& t : c.srcs) ptrs.push_back(&t);
        {
          py::gil_scoped_release release;
          pto::execute(c.profile, c.op, c.dst, ptrs, c.params);
        }
        return from_tile(c.dst, c.dst_dtype);
      },
      py::arg("op"), py::arg("dst"), py::arg("srcs"), py::arg("variant"), py::arg("cmp"),
      py::arg("round"), py::arg("saturation"), py::kw_only(), py::arg("a5_ieee"),
      "dst = op(srcs...) over dst's valid region, as the PTO model computes it; returns the destination\n"
      "tile after the operation as a new array of dst's dtype and shape (lanes outside the valid region\n"
      "keep dst's values; TCMP clears its whole predicate tile first).\n"
      "op: 'TADD', 'tadd' or 'pto.tadd'; dst and each src: a 2-D array [row, col] or a tmu.pto.Tile\n"
      "(type, layout, valid region); srcs in the intrinsic's order (TSEL: mask, src0, src1).\n"
      "variant (the profile): 'cpusim' (None), 'a2a3' or 'a5' (a5's float lanes rest on tmu.pto.A5_FLOAT_ASSUMPTION; a5_ieee=False refuses them instead); cmp: TCMP's mode (EQ..GE); round, saturation: TCVT's.\n\n"
      ">>> a = np.full((1, 8), 1.5, np.float32); b = np.full((1, 8), 2.25, np.float32)\n"
      ">>> tmu.pto.execute('TADD', np.zeros((1, 8), np.float32), [a, b])[0, 0]\n3.75");
  m.def(
      "a2a3_cycles",
      [](const std::string& op, py::handle dst, py::handle srcs_obj, const py::object& cmp, const py::object& round) {
        Call c = prepare("tmu.pto.a2a3_cycles", op, dst, srcs_obj, py::str("a2a3"), cmp, round, py::none());
        std::vector<const pto::Tile*> ptrs;
        for (const auto& t : c.srcs) ptrs.push_back(&t);
        const pto::CycleEstimate e = pto::a2a3_cycles(c.op, c.dst, ptrs, c.params);
        py::list steps;
        for (const auto& s : e.steps) steps.append(py::make_tuple(s.call, s.repeats, s.cycles));
        py::dict d;
        d["cycles"] = e.cycles;
        d["steps"] = steps;
        return d;
      },
      py::arg("op"), py::arg("dst"), py::arg("srcs"), py::arg("cmp"), py::arg("round"),
      "The A2/A3 cost model's cycle estimate of the same call (docs/pto-cycles.md): a dict with\n"
      "'cycles' and 'steps', a list of (CCE call, repeats, cycles). Values play no part.");
  m.def("types", [] {
    py::list l;
    for (auto t : pto::kAllElemTypes) l.append(std::string(pto::elem_name(t)));
    return l;
  }, "The element type names: f32 f16 bf16 i8 u8 i16 u16 i32 u32 i64 u64.");
  m.attr("A5_FLOAT_ASSUMPTION") = std::string(pto::a5_float_assumption());
}

}  // namespace tmu::python
