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

// One tile argument: an ndarray, or an object with .data, .type, .layout, .valid (tmu.pto.Tile).
pto::Tile to_tile(py::handle obj, const std::string& where, const std::string& arg) {
  py::object data = py::reinterpret_borrow<py::object>(obj), type = py::none(), layout = py::none(), valid = py::none();
  if (!py::isinstance<py::array>(obj)) {
    if (!py::hasattr(obj, "data") || !py::hasattr(obj, "type")) {
      type_error(where, arg, "expected a 2-D numpy array or a tmu.pto.Tile, got " +
                                 py::str(py::type::of(obj).attr("__name__")).cast<std::string>());
    }
    data = obj.attr("data"), type = obj.attr("type"), layout = obj.attr("layout"), valid = obj.attr("valid");
  }
  if (!py::isinstance<py::array>(data)) type_error(where, arg + ".data", "expected a 2-D numpy array");
  auto a = py::reinterpret_borrow<py::array>(data);
  if (a.ndim() != 2) value_error(where, arg, fmt::format("expected a 2-D array (rows, cols), got {} dimensions", a.ndim()));
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
    const bool ok = a.dtype().is(own) || (a.dtype().kind() == 'u' && a.dtype().itemsize() * 8 == static_cast<py::ssize_t>(pto::width_bits(t)));
    if (!ok) {
      type_error(where, arg, fmt::format("element type {} takes dtype {} (or uint{} bit patterns), got {}", pto::elem_name(t),
                                         py::str(py::handle(own)).cast<std::string>(), pto::width_bits(t), dtype_name(a)));
    }
  }
  if (a.dtype().itemsize() * 8 != static_cast<py::ssize_t>(pto::width_bits(t))) {
    type_error(where, arg, fmt::format("dtype {} is not {} bits wide", dtype_name(a), pto::width_bits(t)));
  }
  pto::Layout l = pto::Layout::RowMajor;
  if (!layout.is_none()) {
    if (!py::isinstance<py::str>(layout)) type_error(where, arg + ".layout", "expected 'row_major' or 'col_major'");
    l = pto::layout_from_name(layout.cast<std::string>());  // tmu.Error for a boxed or unknown layout
  }
  const auto rows = static_cast<unsigned>(a.shape(0)), cols = static_cast<unsigned>(a.shape(1));
  unsigned vr = rows, vc = cols;
  if (!valid.is_none()) {
    try {
      auto pair = valid.cast<std::pair<unsigned, unsigned>>();
      vr = pair.first, vc = pair.second;
    } catch (const py::cast_error&) {
      type_error(where, arg + ".valid", "expected (valid_rows, valid_cols) or None");
    }
  }
  pto::Tile tile = pto::make_tile(t, rows, cols, l, vr, vc);  // the model's shape rules (tmu.BadInput)
  auto c = py::array::ensure(a, py::array::c_style);
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

Call prepare(const std::string& where, const std::string& op, py::handle dst, const py::sequence& srcs,
             const std::string& profile, const py::object& cmp, const py::object& round, const py::object& saturation,
             bool a5_ieee = true) {
  auto o = pto::op_from_name(op);
  if (!o) value_error(where, "op", pto::unknown_operation(op));
  auto p = pto::profile_from_name(profile);
  if (!p) value_error(where, "profile", fmt::format("unknown profile '{}' (expected 'cpusim', 'a2a3' or 'a5')", profile));
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
  Call call{*o, *p, params, to_tile(dst, where, "dst"), {}, py::dtype::of<uint8_t>()};
  const py::handle dst_data = py::isinstance<py::array>(dst) ? dst : dst.attr("data");
  call.dst_dtype = py::reinterpret_borrow<py::array>(dst_data).dtype();
  for (size_t i = 0; i < srcs.size(); ++i) call.srcs.push_back(to_tile(srcs[i], where, fmt::format("srcs[{}]", i)));
  return call;
}

}  // namespace

void bind_pto(py::module_& m) {
  m.def(
      "execute",
      [](const std::string& op, py::handle dst, const py::sequence& srcs, const std::string& profile, const py::object& cmp,
         const py::object& round, const py::object& saturation, bool a5_ieee) {
        Call c = prepare("tmu.pto.execute", op, dst, srcs, profile, cmp, round, saturation, a5_ieee);
        std::vector<const pto::Tile*> ptrs;
        for (const auto& t : c.srcs) ptrs.push_back(&t);
        {
          py::gil_scoped_release release;
          pto::execute(c.profile, c.op, c.dst, ptrs, c.params);
        }
        return from_tile(c.dst, c.dst_dtype);
      },
      py::arg("op"), py::arg("dst"), py::arg("srcs"), py::arg("profile") = "cpusim", py::arg("cmp") = py::none(),
      py::arg("round") = py::none(), py::arg("saturation") = py::none(), py::kw_only(), py::arg("a5_ieee") = true,
      "dst = op(srcs...) over dst's valid region, as the PTO model computes it; returns the destination\n"
      "tile after the operation as a new array of dst's dtype and shape (lanes outside the valid region\n"
      "keep dst's values; TCMP clears its whole predicate tile first).\n"
      "op: 'TADD', 'tadd' or 'pto.tadd'; dst and each src: a 2-D array [row, col] or a tmu.pto.Tile\n"
      "(type, layout, valid region); srcs in the intrinsic's order (TSEL: mask, src0, src1).\n"
      "profile: 'cpusim', 'a2a3' or 'a5' (a5's float lanes rest on tmu.pto.A5_FLOAT_ASSUMPTION; a5_ieee=False refuses them instead); cmp: TCMP's mode (EQ..GE); round, saturation: TCVT's.\n\n"
      ">>> a = np.full((1, 8), 1.5, np.float32); b = np.full((1, 8), 2.25, np.float32)\n"
      ">>> tmu.pto.execute('TADD', np.zeros((1, 8), np.float32), [a, b])[0, 0]\n3.75");
  m.def(
      "a2a3_cycles",
      [](const std::string& op, py::handle dst, const py::sequence& srcs, const py::object& cmp, const py::object& round) {
        Call c = prepare("tmu.pto.a2a3_cycles", op, dst, srcs, "a2a3", cmp, round, py::none());
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
      py::arg("op"), py::arg("dst"), py::arg("srcs"), py::arg("cmp") = py::none(), py::arg("round") = py::none(),
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
