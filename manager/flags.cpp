#include "manager/flags.h"

#include "runtime/log/log.h"

#include <stdexcept>

namespace capstan::manager {

void check_log_format(const std::string& value) {
  try {
    log::parse_format(value);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string(e.what()) + " for --log-format");
  }
}

}  // namespace capstan::manager
