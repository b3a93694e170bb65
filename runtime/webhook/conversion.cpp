#include "runtime/webhook/conversion.h"

#include "runtime/log/log.h"
#include "runtime/meta/gvk.h"

#include <stdexcept>

namespace capstan::webhook {
namespace {

std::string str(const json::Value& v, json::Path p) { return std::string(json::get_string(v, p)); }

std::string describe(const json::Value& obj) {
  std::string ns = str(obj, {"metadata", "namespace"});
  std::string name = str(obj, {"metadata", "name"});
  return str(obj, {"kind"}) + " " + (ns.empty() ? name : ns + "/" + name);
}

json::Value with_api_version(json::Value obj, const std::string& api_version) {
  if (obj.is_object()) obj.as_object()["apiVersion"] = api_version;
  return obj;
}

http::Response bad_request(const http::Request& req, const std::string& message) {
  log::warn("conversion request rejected", {{"path", std::string(req.path())}, {"error", message}});
  return http::Response(400, message + "\n", "text/plain; charset=utf-8");
}

}  // namespace

HubAndSpoke::HubAndSpoke(std::string group, std::string hub_version)
    : group_(std::move(group)), hub_version_(std::move(hub_version)) {}

HubAndSpoke& HubAndSpoke::add_spoke(const std::string& kind, const std::string& version, Fn to_hub, Fn from_hub) {
  if (version == hub_version_)
    throw std::invalid_argument("conversion: " + kind + " " + version + " is the hub version, not a spoke");
  spokes_[{kind, version}] = Spoke{std::move(to_hub), std::move(from_hub)};
  return *this;
}

json::Value HubAndSpoke::convert(const json::Value& obj, std::string_view desired_api_version) {
  std::string kind = str(obj, {"kind"});
  auto src = meta::GroupVersion::parse(json::get_string(obj, {"apiVersion"}));
  auto dst = meta::GroupVersion::parse(desired_api_version);
  if (src.group != group_ || dst.group != group_)
    throw std::invalid_argument("conversion of " + describe(obj) + " from " + src.api_version() + " to " +
                                std::string(desired_api_version) + ": only group " + group_ + " is handled here");
  if (src.version == dst.version) return obj;
  auto spoke = [&](const std::string& version) -> const Spoke& {
    auto it = spokes_.find({kind, version});
    if (it == spokes_.end())
      throw std::invalid_argument("conversion of " + describe(obj) + ": version " + version + " of " + kind +
                                  " is not convertible (hub " + hub_version_ + ")");
    return it->second;
  };
  json::Value hub = obj;
  if (src.version != hub_version_) hub = with_api_version(spoke(src.version).to_hub(obj), group_ + "/" + hub_version_);
  if (dst.version == hub_version_) return hub;
  return with_api_version(spoke(dst.version).from_hub(hub), dst.api_version());
}

std::string_view api_version(ConversionReviewVersion v) {
  return v == ConversionReviewVersion::V1 ? "apiextensions.k8s.io/v1" : "apiextensions.k8s.io/v1beta1";
}

std::pair<ConversionReviewVersion, ConversionRequest> decode_conversion_review(std::string_view body) {
  std::string error;
  auto doc = json::try_parse(body, &error);
  if (!doc) throw std::invalid_argument("couldn't decode the ConversionReview: " + error);
  if (!doc->is_object()) throw std::invalid_argument("couldn't decode the ConversionReview: not a JSON object");
  std::string av = str(*doc, {"apiVersion"});
  std::string kind = str(*doc, {"kind"});
  ConversionReviewVersion version = ConversionReviewVersion::V1;
  if (av.empty() && kind.empty()) {
    version = ConversionReviewVersion::V1;
  } else if (kind != "ConversionReview") {
    throw std::invalid_argument("expected a ConversionReview, got kind \"" + kind + "\"");
  } else if (av == "apiextensions.k8s.io/v1") {
    version = ConversionReviewVersion::V1;
  } else if (av == "apiextensions.k8s.io/v1beta1") {
    version = ConversionReviewVersion::V1beta1;
  } else {
    throw std::invalid_argument("no kind \"ConversionReview\" is registered for version \"" + av + "\"");
  }
  json::Value* req = json::find(*doc, {"request"});
  if (!req || !req->is_object()) throw std::invalid_argument("conversion request is nil");
  ConversionRequest r;
  r.uid = str(*req, {"uid"});
  r.desired_api_version = str(*req, {"desiredAPIVersion"});
  // The objects are moved out of the parsed review (ours alone), not copied.
  if (auto* objs = req->as_object().if_contains("objects"); objs && objs->is_array()) {
    r.objects.reserve(objs->as_array().size());
    for (auto& o : objs->as_array()) r.objects.push_back(std::move(o));
  }
  return {version, std::move(r)};
}

Handler make_conversion_handler(std::shared_ptr<Converter> converter) {
  return [converter = std::move(converter)](const http::Request& req) -> http::Response {
    ConversionReviewVersion version;
    ConversionRequest cr;
    try {
      std::tie(version, cr) = decode_conversion_review(req.body);
    } catch (const std::exception& e) {
      return bad_request(req, e.what());
    }
    json::Object response{{"uid", cr.uid}};
    try {
      if (cr.desired_api_version.empty()) throw std::invalid_argument("request.desiredAPIVersion is empty");
      json::Array converted;
      for (const auto& obj : cr.objects) {
        json::Value out = converter->convert(obj, cr.desired_api_version);
        std::string got = str(out, {"apiVersion"});
        if (got != cr.desired_api_version)
          throw std::runtime_error("conversion of " + describe(obj) + " returned apiVersion \"" + got + "\", expected \"" +
                                   cr.desired_api_version + "\"");
        converted.push_back(std::move(out));
      }
      response["convertedObjects"] = std::move(converted);
      response["result"] = json::Object{{"metadata", json::Object{}}, {"status", "Success"}};
    } catch (const std::exception& e) {
      log::warn("conversion failed", {{"uid", cr.uid}, {"desiredAPIVersion", cr.desired_api_version}, {"error", e.what()}});
      response["result"] = json::Object{{"metadata", json::Object{}}, {"status", "Failed"}, {"message", e.what()}};
    }
    json::Value review = json::Object{{"apiVersion", api_version(version)}, {"kind", "ConversionReview"},
                                      {"response", std::move(response)}};
    return http::Response(200, json::serialize(review));
  };
}

}  // namespace capstan::webhook
