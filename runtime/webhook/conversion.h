// CRD conversion webhooks (controller-runtime pkg/webhook/conversion): ConversionReview v1
// and v1beta1, a Converter interface and a hub-and-spoke registry.
//
//   auto hub = std::make_shared<webhook::HubAndSpoke>("kafka.capstan.dev", "v1");
//   hub->add_spoke("KafkaTopic", "v1beta1", topic_v1beta1_to_v1, topic_v1_to_v1beta1);
//   server.register_path(webhook::kConvertPath, webhook::make_conversion_handler(hub));
#pragma once

#include "runtime/json/json.h"
#include "runtime/webhook/handler.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace capstan::webhook {

class Converter {
 public:
  virtual ~Converter() = default;
  // Returns `obj` in `desired_api_version` ("group/version"); throws to fail the conversion
  // (the message reaches the API server's client).
  virtual json::Value convert(const json::Value& obj, std::string_view desired_api_version) = 0;
};

struct FuncConverter : Converter {
  explicit FuncConverter(std::function<json::Value(const json::Value&, std::string_view)> fn) : fn(std::move(fn)) {}
  std::function<json::Value(const json::Value&, std::string_view)> fn;
  json::Value convert(const json::Value& obj, std::string_view v) override { return fn(obj, v); }
};

// Hub and spoke: every version converts to and from one hub version, so spoke-to-spoke goes
// through the hub. The functions get and return whole objects; the registry sets apiVersion.
// An object already in the desired version is returned unchanged.
class HubAndSpoke : public Converter {
 public:
  using Fn = std::function<json::Value(const json::Value&)>;
  HubAndSpoke(std::string group, std::string hub_version);
  // Registers `version` of `kind` as a spoke. Throws std::invalid_argument for the hub itself.
  HubAndSpoke& add_spoke(const std::string& kind, const std::string& version, Fn to_hub, Fn from_hub);
  json::Value convert(const json::Value& obj, std::string_view desired_api_version) override;

 private:
  struct Spoke {
    Fn to_hub, from_hub;
  };
  std::string group_;
  std::string hub_version_;
  std::map<std::pair<std::string, std::string>, Spoke> spokes_;  // (kind, version)
};

enum class ConversionReviewVersion { V1, V1beta1 };
std::string_view api_version(ConversionReviewVersion v);  // apiextensions.k8s.io/v1 | v1beta1

struct ConversionRequest {
  std::string uid;
  std::string desired_api_version;
  std::vector<json::Value> objects;
};

// Throws std::invalid_argument naming the problem (not JSON, not a ConversionReview, no request).
std::pair<ConversionReviewVersion, ConversionRequest> decode_conversion_review(std::string_view body);

// ConversionReview handling: a malformed body or a review without request -> HTTP 400.
// Otherwise every object is converted in order and the answer (HTTP 200, same review
// version, response.uid = request.uid, no request echoed) is
// {convertedObjects, result{status: Success}}, or result{status: Failed, message} when any
// object fails (the converter threw, or returned another apiVersion than desired).
Handler make_conversion_handler(std::shared_ptr<Converter> converter);

}  // namespace capstan::webhook
