#include "apis/gitops/v1/variable_name.h"

#include <cctype>

namespace capstan::apis::gitops::v1 {

bool valid_variable_name(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

}  // namespace capstan::apis::gitops::v1
