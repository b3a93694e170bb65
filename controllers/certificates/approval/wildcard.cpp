#include "controllers/certificates/approval/wildcard.h"

namespace capstan::certificates::approval {

// Greedy with one backtrack point (the last '*'): linear in practice, O(pattern x value) at worst,
// where approver-policy's recursive matcher is exponential on patterns like "*a*a*a*b". Bytes,
// not runes: a literal of valid UTF-8 can only match at a rune boundary, so the results agree.
bool wildcard_matches(std::string_view pattern, std::string_view value) {
  std::size_t p = 0, v = 0;
  std::size_t star = std::string_view::npos, resume = 0;
  while (v < value.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = v;
    } else if (p < pattern.size() && pattern[p] == value[v]) {
      ++p;
      ++v;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      v = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool wildcard_contains(const std::vector<std::string>& patterns, std::string_view value) {
  for (const auto& p : patterns)
    if (wildcard_matches(p, value)) return true;
  return false;
}

bool wildcard_subset(const std::vector<std::string>& patterns, const std::vector<std::string>& members) {
  for (const auto& m : members)
    if (!wildcard_contains(patterns, m)) return false;
  return true;
}

}  // namespace capstan::certificates::approval
