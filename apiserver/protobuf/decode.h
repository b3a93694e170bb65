// Decoding of Kubernetes' protobuf wire encoding (Content-Type: application/vnd.kubernetes.protobuf)
// into the JSON object kube-apiserver would serialise for the same request, so the API server can
// handle protobuf request bodies (sent by kubectl's typed clients: `kubectl create configmap`,
// `create deployment`, `auth can-i`, ...) exactly as if they had been sent as JSON.
//
// A body is the 4-byte magic "k8s\x00" followed by a runtime.Unknown envelope
//   {1: TypeMeta{1: apiVersion, 2: kind}, 2: raw (the object's message), 3: contentEncoding,
//    4: contentType};
// the message schema is picked by apiVersion + kind (see supported_kinds()) and `raw` decoded with it.
//
// JSON rules (emulating Go: proto-unmarshal into the k8s.io/api struct, then encoding/json):
//  * A field is emitted only when it is present on the wire; absent fields are never synthesised.
//  * A present scalar equal to its zero value ("", 0, false) is dropped when the Go field is a plain
//    `omitempty` value (the common case); it is kept when the Go field is a pointer (`replicas`,
//    `immutable`, ...) or has no omitempty (`containerPort`, `name` of a container, ...).
//  * A present message is always emitted, even when empty (Go never omits struct values; kubectl's
//    protobuf marshaller always writes them): `"status": {"loadBalancer": {}}`.
//  * Special messages: metav1.Time -> RFC 3339 at second precision, or null when empty (zero time);
//    MicroTime -> RFC 3339 with 6 fractional digits; Duration -> Go duration string; Quantity
//    {1: string} -> that string ("0" when empty); IntOrString {1: type, 2: intVal, 3: strVal} ->
//    number or string; RawExtension / FieldsV1 {1: raw} -> the embedded JSON (a nested
//    "k8s\x00" envelope is decoded recursively), null when empty; ExtraValue -> string array.
//  * bytes -> base64 (standard alphabet, padded); strings with invalid UTF-8 get U+FFFD, as Go does.
//  * Members appear in Go struct order with "kind" and "apiVersion" first; fields Go inlines
//    (`json:",inline"`, e.g. Volume.volumeSource, Probe.handler) are merged into their parent.
//  * Unknown field numbers are skipped (as Go's generated Unmarshal does) and listed in
//    DecodeResult::unknown_fields; DecodeOptions::reject_unknown_fields turns them into errors.
#pragma once

#include "runtime/json/json.h"

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::apiserver::protobuf {

inline constexpr std::string_view kContentType = "application/vnd.kubernetes.protobuf";
inline constexpr std::string_view kMagic{"k8s\0", 4};

// Thrown for every malformed or unsupported body. The message is precise: what is wrong, the byte
// offset in the body, and the message/field path concerned, e.g.
//   protobuf: field 2 (data) of message k8s.io.api.core.v1.ConfigMap has wire type 0 (varint),
//   expected 2 (length-delimited), at offset 49 (at data)
class DecodeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct DecodeOptions {
  // Throw on field numbers the schema does not know instead of skipping them.
  bool reject_unknown_fields = false;
};

struct DecodeResult {
  json::Value object;
  // One entry per skipped field: "spec.template.spec: field 99 (wire type varint) of
  // k8s.io.api.core.v1.PodSpec".
  std::vector<std::string> unknown_fields;
};

// Decodes a whole request body (magic + envelope) into the object JSON, with "apiVersion" and
// "kind" set from the envelope. Unknown fields are skipped.
json::Value decode(std::string_view body);
DecodeResult decode_with_report(std::string_view body, const DecodeOptions& options = {});

// Whether decode() has a schema for this apiVersion ("v1", "apps/v1") and kind.
bool is_supported(std::string_view api_version, std::string_view kind);
// Every supported "apiVersion/Kind" pair, e.g. "v1/ConfigMap", "apps/v1/Deployment".
std::vector<std::string> supported_kinds();

// True for "application/vnd.kubernetes.protobuf" with or without parameters (case-insensitive).
bool is_protobuf_content_type(std::string_view content_type);

}  // namespace capstan::apiserver::protobuf
