// AdmissionReview and ConversionReview bodies as the API server POSTs them to our webhook
// server, through the real handlers (validating, mutating, conversion) and the decoders. The
// decoders' documented failure is std::invalid_argument; the handlers never throw and always
// answer: a JSON review with HTTP 200, or HTTP 400 for a ConversionReview they cannot read.
#include "runtime/json/json.h"
#include "runtime/log/log.h"
#include "runtime/webhook/admission.h"
#include "runtime/webhook/conversion.h"

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

using namespace capstan;

namespace {

struct Handlers {
  webhook::Handler validate, mutate, convert;
};

const Handlers& handlers() {
  static const Handlers h = [] {
    auto v = std::make_shared<webhook::FuncValidator>();
    v->on_create = [](const json::Value& o) -> webhook::Warnings {
      if (json::get_string(o, {"spec", "secretName"}).empty()) throw webhook::Denied("spec.secretName: Required value");
      return {"checked"};
    };
    v->on_update = [](const json::Value& a, const json::Value& b) -> webhook::Warnings {
      if (json::get_string(a, {"spec", "secretName"}) != json::get_string(b, {"spec", "secretName"}))
        throw webhook::Denied("spec.secretName: field is immutable", "Invalid", 422);
      return {};
    };
    auto d = std::make_shared<webhook::FuncDefaulter>([](json::Value& o) {
      if (o.is_object()) json::ensure_object(o, {"metadata", "labels"})["defaulted"] = "true";
    });
    auto hub = std::make_shared<webhook::HubAndSpoke>("certs.capstan.dev", "v1");
    auto rename = [](std::string_view to) {
      return [to = std::string(to)](const json::Value& o) {
        json::Value c = o;
        if (c.is_object()) c.as_object()["apiVersion"] = to;
        return c;
      };
    };
    hub->add_spoke("Certificate", "v1beta1", rename("certs.capstan.dev/v1"), rename("certs.capstan.dev/v1beta1"));
    return Handlers{webhook::make_validating_handler(v), webhook::make_mutating_handler(d),
                    webhook::make_conversion_handler(hub)};
  }();
  return h;
}

void serve(const webhook::Handler& handler, const http::Request& req) {
  http::Response resp = handler(req);
  // Every answer is a JSON review, except the conversion handler's 400 for a malformed body.
  if (resp.status == 200 ? !json::try_parse(resp.body) : resp.status != 400) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  log::silence();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view body(reinterpret_cast<const char*>(data), size);
  try {
    (void)webhook::decode_admission_review(body);
  } catch (const std::invalid_argument&) {
  }
  try {
    (void)webhook::decode_conversion_review(body);
  } catch (const std::invalid_argument&) {
  }
  http::Request req;
  req.method = "POST";
  req.headers.set("Content-Type", "application/json");
  req.body = std::string(body);
  const auto& h = handlers();
  req.target = "/validate-certs-capstan-dev-v1-certificate";
  serve(h.validate, req);
  req.target = "/mutate-certs-capstan-dev-v1-certificate";
  serve(h.mutate, req);
  req.target = "/convert";
  serve(h.convert, req);
  return 0;
}
