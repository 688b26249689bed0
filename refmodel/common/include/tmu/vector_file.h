// The framing every engine's vector files share (docs/vector-format.md): the version line, the engine
// line, the engine's header records, vectors between "vector NAME" and "end", and the closing
// "eof N". The engines supply only the records inside a vector and their header records; errors are
// tmu::ProgramError, "file:line: reason".
//
//   tmu-vectors 1
//   engine NAME           absent in the default engine's files
//   arch M2               header records: the engine's
//   vector NAME  # ...
//   ...                   the vector's records: the engine's
//   end
//   eof 1
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tmu/text_lines.h"

namespace tmu {

inline constexpr const char* kVectorMagic = "tmu-vectors";
// Writers write version 1 unless a file holds records of a newer version (an engine's records name
// the version they need, docs/vector-format.md); readers take every version from 1 to kVectorFormatNewest.
inline constexpr unsigned kVectorFormatVersion = 1;
inline constexpr unsigned kVectorFormatNewest = 3;
inline constexpr const char* kVectorFileExtension = ".tmv";
inline constexpr const char* kVectorManifestName = "MANIFEST";

struct VectorBlock {
  std::string name;
  std::string note;              // the comment on its "vector" line, if any
  unsigned line = 0;             // of its "vector" record
  unsigned end_line = 0;         // of its "end" record (0 until read)
};

struct FramedVectorFile {
  std::string path;
  unsigned version = kVectorFormatVersion;  // from the version line
  std::string engine;             // as named by the file; "" when it names none
  std::vector<TextLine> header;   // records between the engine line and the first vector
  std::vector<VectorBlock> vectors;
};

// What an engine does with the records as the framing reads them, in the order of the lines, so the
// first error in the file is the one reported. A tmu::Error a handler throws becomes a ProgramError
// at the record's line (a BadInput error by its message alone, any other kind with its kind named).
struct VectorRecordHandler {
  // When not empty, the usage of the header record every file must have before its first vector
  // ("arch M1|M2|M3|M4"): its absence is an error at the first vector (or at eof).
  std::string required_header;
  std::function<void(unsigned)> version;  // the version line's number, before any other record
  std::function<void(const std::string&)> header_comment;  // each comment line starting a line before the first vector
  std::function<void(const TextLine&)> header;    // each header record
  std::function<void(const VectorBlock&)> begin;  // "vector NAME"
  std::function<void(const TextLine&)> record;    // each record of the open vector
  // Instead of `record` when set: the record as views into the reader's buffer, valid during the
  // call only (no copy of its words; an engine's replay may read hundreds of MB of them).
  std::function<void(const TextLineView&)> record_view;
  std::function<void(const VectorBlock&)> end;    // its "end"
};

// Reads a whole file. Throws ProgramError for a missing version line, a file naming another engine
// than `engine` (or none, unless `engine_line_optional`: the default engine's files may omit it), a
// record outside a vector other than header records before the first vector, a repeated vector
// name, a vector without "end", a missing or wrong "eof N", or anything after it.
FramedVectorFile read_vector_frame(std::istream& in, const std::string& path, std::string_view engine,
                                   const VectorRecordHandler& handler = {}, bool engine_line_optional = false);

// The engine a vector file names, reading as far as its engine line: the name ("" when it names
// none) and the line of the engine record (or of the record standing where it would be). Throws
// ProgramError when the file does not start with the version line.
struct NamedEngine {
  std::string name;
  unsigned line = 2;
};
NamedEngine vector_file_engine(std::istream& in, const std::string& path);

// The opening lines: version, the comment lines (each prefixed "# "), the engine line unless
// `engine` is empty.
std::string vector_file_head(std::string_view engine, const std::vector<std::string>& comments);
// "vector NAME  # comment" (no comment part when empty) and the closing "eof N".
std::string vector_record(std::string_view name, std::string_view comment);
std::string vector_file_tail(size_t vectors);

// A header check for read_vector_frame: exactly one header record, "arch NAME"; calls take(NAME).
// `names` lists the accepted names for the message ("M1|M2|M3|M4").
std::function<void(const TextLine&)> arch_header(std::string_view names, std::function<void(const std::string&)> take);

// A ProgramError at a record of the file.
[[noreturn]] void vector_file_error(const FramedVectorFile& f, unsigned line, const std::string& reason);

// ---- The MANIFEST of a directory of vector files ----
std::string sha256_hex(std::string_view data);

struct ManifestEntry {
  std::string path;  // relative to the manifest's directory
  uint64_t vectors = 0;
  uint64_t element_cases = 0;
  std::string sha256;
};
std::string format_manifest(const std::vector<ManifestEntry>& entries, const std::vector<std::string>& header);

// A file opened for reading that also computes the SHA-256 of the bytes it delivers, so that
// `tmu check DIR` reads each file once: the replay reads it, and the MANIFEST check takes the digest.
// The digest is known once the stream has delivered the whole file in order; before that, after a
// seek, or after a read error, it is not. With `hash` false it is a plain file stream (a file that
// no MANIFEST lists is not hashed).
class HashingFile : public std::istream {
 public:
  explicit HashingFile(const std::filesystem::path& path, bool hash = true);
  ~HashingFile() override;
  bool is_open() const;
  std::optional<std::string> sha256_hex() const;  // lowercase hex

 private:
  class Buf;
  std::unique_ptr<Buf> buf_;
};

// Verifies dir/MANIFEST: every listed file is there with its SHA-256 and every vector file below dir
// is listed. `differences` are the files that disagree; `malformed`, lines that cannot be read.
// `known(path)` gives the digest of the file at `path` (dir / the listed path, lexically normal)
// when the caller has it already (a replay read the file through HashingFile), or nullopt to have the
// file read here.
struct ManifestCheck {
  std::vector<std::string> differences, malformed;
};
using KnownDigest = std::function<std::optional<std::string>(const std::filesystem::path& path)>;
ManifestCheck check_manifest(const std::filesystem::path& dir, const KnownDigest& known = {});

// The vector files (kVectorFileExtension) anywhere below `dir`, sorted: what `tmu check DIR` replays.
std::vector<std::string> vector_files_below(const std::filesystem::path& dir);

}  // namespace tmu
