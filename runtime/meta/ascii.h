// ASCII case folding, as Kubernetes and Prometheus compare the names that are case-insensitive
// (kinds in webhook names, relabel actions, schemes, discovery roles, header parameters).
#pragma once

#include <string>
#include <string_view>

namespace capstan::meta {

inline std::string ascii_lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

}  // namespace capstan::meta
