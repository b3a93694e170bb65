#include "controllers/certificates/objects.h"

#include "apis/certs/v1/group.h"
#include "apis/common/codec.h"
#include "runtime/meta/object.h"

namespace capstan::certificates {

json::Value owner_reference(std::string_view kind, const json::Value& owner) {
  return json::Object{{"apiVersion", apis::certs::v1::kApiVersion},
                      {"kind", kind},
                      {"name", meta::name_of(owner)},
                      {"uid", meta::uid_of(owner)},
                      {"controller", true},
                      {"blockOwnerDeletion", true}};
}

json::Value event_target(std::string_view api_version, std::string_view kind, const json::Value& obj) {
  json::Object md{{"name", meta::name_of(obj)}, {"uid", meta::uid_of(obj)}};
  if (auto ns = meta::namespace_of(obj); !ns.empty()) md["namespace"] = ns;
  if (auto rv = meta::resource_version_of(obj); !rv.empty()) md["resourceVersion"] = rv;
  return json::Object{{"apiVersion", api_version}, {"kind", kind}, {"metadata", std::move(md)}};
}

json::Object to_object(const std::map<std::string, std::string>& m) {
  json::Object o;
  for (const auto& [k, v] : m) o[k] = v;
  return o;
}

std::string_view creation_timestamp(const json::Value& obj) { return json::get_string(obj, {"metadata", "creationTimestamp"}); }

apis::certs::v1::CertificateRequest decode_request(const json::Value& obj, const controller::Request& req) {
  try {
    return apis::certs::v1::CertificateRequest::from_json(obj);
  } catch (const apis::codec::DecodeError& e) {
    throw controller::TerminalError("CertificateRequest " + req.key() + " cannot be decoded: " + e.what());
  }
}

}  // namespace capstan::certificates
