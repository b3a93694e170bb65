#include "runtime/webhook/paths.h"
#include "runtime/meta/ascii.h"

#include <cctype>

namespace capstan::webhook {
namespace {

std::string path_for(std::string_view prefix, const meta::GroupVersionKind& gvk) {
  std::string out(prefix);
  out += '-';
  for (char c : gvk.group) out += c == '.' ? '-' : c;
  out += '-';
  out += gvk.version;
  out += '-';
  out += meta::ascii_lower(gvk.kind);
  return out;
}

bool segment_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'; }

}  // namespace

std::string mutate_path(const meta::GroupVersionKind& gvk) { return path_for("/mutate", gvk); }
std::string validate_path(const meta::GroupVersionKind& gvk) { return path_for("/validate", gvk); }

std::string convert_path(std::string_view group) {
  std::string out(kConvertPath);
  out += '-';
  for (char c : group) out += c == '.' ? '-' : c;
  return out;
}

bool is_valid_path(std::string_view path) {
  if (path == "/") return true;
  if (path.empty() || path.front() != '/') return false;
  bool segment_empty = true;
  for (std::size_t i = 1; i < path.size(); ++i) {
    char c = path[i];
    if (c == '/') {
      if (segment_empty) return false;
      segment_empty = true;
    } else if (segment_char(c)) {
      segment_empty = false;
    } else {
      return false;
    }
  }
  return !segment_empty;
}

}  // namespace capstan::webhook
