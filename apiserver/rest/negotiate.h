// Content negotiation: which representation an Accept header asks for, and how a request
// body is encoded.
#pragma once

#include <string>
#include <string_view>

namespace capstan::apiserver::rest {

struct Accepted {
  enum class Kind { Json, Yaml, Table, PartialMetadata, Discovery } kind = Kind::Json;
  std::string version;   // Table: "v1"|"v1beta1"; Discovery: "v2"|"v2beta1"
  bool acceptable = true;  // false: nothing in the header is something we serve (406)
};

// Parses Accept: the first media type we can serve wins, as kube-apiserver negotiates.
Accepted negotiate(std::string_view accept, bool discovery_endpoint);

// The media type of a Content-Type header, lower-cased without parameters.
std::string media_type(std::string_view content_type);

}  // namespace capstan::apiserver::rest
