#include "tmu/error.h"

namespace tmu {

const char* error_kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::DecodeError: return "DecodeError";
    case ErrorKind::UndefinedBehaviour: return "UndefinedBehaviour";
    case ErrorKind::NonContractualBehaviour: return "NonContractualBehaviour";
    case ErrorKind::Unsupported: return "Unsupported";
    case ErrorKind::BadInput: return "BadInput";
  }
  return "Error";
}

}  // namespace tmu
