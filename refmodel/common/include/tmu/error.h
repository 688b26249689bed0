// Failure categories, after the ISA documentation's own taxonomy: a case the ISA leaves undefined,
// a case whose behaviour the ISA does not promise, and input that tmu cannot accept at all.
#pragma once

#include <stdexcept>
#include <string>

namespace tmu {

enum class ErrorKind {
  DecodeError,               // reserved opcode, field value not allowed, reserved bits set
  UndefinedBehaviour,        // the ISA defines no result (e.g. a GPR op mode that does not exist)
  NonContractualBehaviour,   // the ISA describes it but does not promise it; refused unless enabled
  Unsupported,               // tmu does not model it
  BadInput,                  // malformed program, vector file, command-line value
};

const char* error_kind_name(ErrorKind kind);

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, std::string message)
      : std::runtime_error(std::string(error_kind_name(kind)) + ": " + message), kind_(kind), message_(std::move(message)) {}
  ErrorKind kind() const { return kind_; }
  // The message without the kind in front (what() has both).
  const std::string& message() const { return message_; }

 private:
  ErrorKind kind_;
  std::string message_;
};

}  // namespace tmu
