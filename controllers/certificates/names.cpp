#include "controllers/certificates/names.h"

#include "runtime/meta/hash.h"

#include <cstdio>

namespace capstan::certificates {

std::string bounded_name(std::string_view base, std::string_view suffix, std::size_t max) {
  std::string full = std::string(base) + std::string(suffix);
  if (full.size() <= max) return full;
  char hash[16];
  std::snprintf(hash, sizeof hash, "-%08x", meta::fnv1a32(full));
  std::size_t keep = max - suffix.size() - 9;
  std::string out(base.substr(0, keep));
  while (!out.empty() && (out.back() == '-' || out.back() == '.')) out.pop_back();
  return out + hash + std::string(suffix);
}

std::string request_name(std::string_view certificate, std::int64_t revision) {
  return bounded_name(certificate, "-" + std::to_string(revision));
}

std::string next_key_secret_name(std::string_view certificate, std::int64_t revision) {
  return bounded_name(certificate, "-" + std::to_string(revision) + "-key");
}

}  // namespace capstan::certificates
