#include "apiserver/admission/client_config.h"

#include "runtime/meta/base64.h"

namespace capstan::apiserver::admission {

ClientConfig parse_client_config(const json::Value* cc) {
  ClientConfig out;
  if (!cc || !cc->is_object()) return out;
  out.url = json::get_string(*cc, {"url"});
  if (const auto* svc = json::find(*cc, {"service"}); svc && svc->is_object()) {
    ServiceReference s;
    s.ns = json::get_string(*svc, {"namespace"});
    s.name = json::get_string(*svc, {"name"});
    s.path = json::get_string(*svc, {"path"});
    s.port = static_cast<int>(json::get_int(*svc, {"port"}).value_or(443));
    out.service = std::move(s);
  }
  std::string_view bundle = json::get_string(*cc, {"caBundle"});
  if (!bundle.empty()) {
    auto pem = meta::base64_decode(bundle);
    if (pem) out.ca_pem = std::move(*pem);
    else out.ca_error = "illegal base64 data in caBundle";
  }
  return out;
}

}  // namespace capstan::apiserver::admission
