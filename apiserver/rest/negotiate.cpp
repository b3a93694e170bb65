#include "apiserver/rest/negotiate.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

namespace capstan::apiserver::rest {
namespace {

std::string trim_lower(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

struct MediaRange {
  std::string type;
  std::map<std::string, std::string> params;
};

std::vector<MediaRange> parse_accept(std::string_view accept) {
  std::vector<MediaRange> out;
  std::size_t i = 0;
  while (i <= accept.size()) {
    auto comma = accept.find(',', i);
    std::string_view part = accept.substr(i, comma == std::string_view::npos ? std::string_view::npos : comma - i);
    MediaRange m;
    std::size_t j = 0;
    bool first = true;
    while (j <= part.size()) {
      auto semi = part.find(';', j);
      std::string_view item = part.substr(j, semi == std::string_view::npos ? std::string_view::npos : semi - j);
      if (first) {
        m.type = trim_lower(item);
        first = false;
      } else {
        auto eq = item.find('=');
        if (eq != std::string_view::npos) m.params[trim_lower(item.substr(0, eq))] = std::string(trim_lower(item.substr(eq + 1)));
      }
      if (semi == std::string_view::npos) break;
      j = semi + 1;
    }
    if (!m.type.empty()) out.push_back(std::move(m));
    if (comma == std::string_view::npos) break;
    i = comma + 1;
  }
  return out;
}

}  // namespace

std::string media_type(std::string_view content_type) {
  auto semi = content_type.find(';');
  return trim_lower(content_type.substr(0, semi));
}

Accepted negotiate(std::string_view accept, bool discovery_endpoint) {
  Accepted a;
  if (accept.empty()) return a;
  for (const auto& m : parse_accept(accept)) {
    bool json = m.type == "application/json" || m.type == "application/*" || m.type == "*/*";
    if (m.type == "application/yaml" && m.params.empty()) {
      a.kind = Accepted::Kind::Yaml;
      return a;
    }
    if (!json) continue;
    auto as = m.params.find("as");
    if (as == m.params.end()) {
      a.kind = Accepted::Kind::Json;
      return a;
    }
    auto g = m.params.count("g") ? m.params.at("g") : "";
    auto v = m.params.count("v") ? m.params.at("v") : "";
    if (as->second == "table" && g == "meta.k8s.io" && (v == "v1" || v == "v1beta1")) {
      a.kind = Accepted::Kind::Table;
      a.version = v;
      return a;
    }
    if ((as->second == "partialobjectmetadata" || as->second == "partialobjectmetadatalist") && g == "meta.k8s.io" &&
        (v == "v1" || v == "v1beta1")) {
      a.kind = Accepted::Kind::PartialMetadata;
      a.version = v;
      return a;
    }
    if (discovery_endpoint && as->second == "apigroupdiscoverylist" && g == "apidiscovery.k8s.io" &&
        (v == "v2" || v == "v2beta1")) {
      a.kind = Accepted::Kind::Discovery;
      a.version = v;
      return a;
    }
  }
  a.acceptable = false;
  return a;
}

}  // namespace capstan::apiserver::rest
