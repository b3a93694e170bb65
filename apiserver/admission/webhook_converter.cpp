#include "apiserver/admission/webhook_converter.h"

#include "apiserver/admission/admission_review.h"
#include "apiserver/builtin/strategy.h"
#include "apiserver/rest/api_error.h"
#include "apiserver/rest/service.h"
#include "runtime/log/log.h"

#include <algorithm>
#include <cctype>
#include <chrono>

namespace capstan::apiserver::admission {
namespace {

constexpr std::chrono::seconds kConversionTimeout{30};  // the webhook REST client's default timeout
constexpr std::size_t kTotalAnnotationSizeLimit = 256 * 1024;

std::string quoted(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out.append(1, '"').append(s).append(1, '"');
  return out;
}

// Go's %T for a value decoded by encoding/json into interface{}.
std::string go_type(const json::Value& v) {
  if (v.is_object()) return "map[string]interface {}";
  if (v.is_array()) return "[]interface {}";
  if (v.is_string()) return "string";
  if (v.is_bool()) return "bool";
  if (v.is_null()) return "<nil>";
  if (v.is_int64() || v.is_uint64()) return "int64";
  return "float64";
}

// utilerrors.NewAggregate(errs).Error().
std::string aggregate(const std::vector<validation::Cause>& causes) {
  if (causes.size() == 1) return causes[0].error();
  std::string out = "[";
  for (std::size_t i = 0; i < causes.size(); ++i) out += (i ? ", " : "") + causes[i].error();
  return out + "]";
}

std::vector<validation::Cause> validate_annotations(const json::Object& annotations) {
  std::vector<validation::Cause> out;
  auto path = validation::FieldPath("metadata").child("annotation");  // sic: upstream's path
  std::size_t total = 0;
  for (const auto& kv : annotations) {
    std::string key(kv.key());
    total += key.size() + (kv.value().is_string() ? kv.value().get_string().size() : 0);
    std::string lower = key;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    // A qualified-name check is what label keys get too; reuse it and re-home the errors.
    json::Value probe = json::Object{{"metadata", json::Object{{"labels", json::Object{{lower, ""}}}}}};
    std::string prefix = validation::error_body(validation::reason::kInvalid, {json::Value(json::String(lower))}, "") + ": ";
    for (const auto& c : builtin::validate_labels(probe)) {
      std::string detail = c.message.rfind(prefix, 0) == 0 ? c.message.substr(prefix.size()) : c.message;
      out.push_back(validation::field_invalid(path, json::Value(json::String(key)), detail));
    }
  }
  if (total > kTotalAnnotationSizeLimit)
    out.push_back(validation::field_too_long(path, static_cast<std::int64_t>(kTotalAnnotationSizeLimit)));
  return out;
}

std::string_view string_at(const json::Value& v, json::Path p) { return json::get_string(v, p); }

// validateConvertedObject: everything but labels and annotations must be unchanged.
std::string validate_converted(const json::Value& in, const json::Value& out) {
  auto check = [&](std::string_view what, std::string_view a, std::string_view b) -> std::string {
    if (a == b) return {};
    return "must have the same " + std::string(what) + ": " + std::string(a) + " != " + std::string(b);
  };
  for (auto msg : {check("kind", string_at(in, {"kind"}), string_at(out, {"kind"})),
                   check("name", string_at(in, {"metadata", "name"}), string_at(out, {"metadata", "name"})),
                   check("namespace", string_at(in, {"metadata", "namespace"}), string_at(out, {"metadata", "namespace"})),
                   check("UID", string_at(in, {"metadata", "uid"}), string_at(out, {"metadata", "uid"}))}) {
    if (!msg.empty()) return msg;
  }
  return {};
}

[[noreturn]] void fail(std::string message) { throw ApiError(500, "", std::move(message)); }

}  // namespace

std::string restore_object_meta(const json::Value& original, json::Value& converted) {
  auto& co = converted.as_object();
  auto mit = co.find("metadata");
  if (mit == co.end()) return "missing metadata in converted object";
  if (!mit->value().is_object()) return "invalid metadata of type " + go_type(mit->value()) + " in converted object";
  json::Object response_meta = mit->value().as_object();

  const json::Value* orig_meta = json::find(original, {"metadata"});
  json::Value restored = orig_meta ? *orig_meta : json::Value(json::Object{});
  if (!restored.is_object()) return "invalid metadata of type " + go_type(restored) + " in input object";
  auto& rm = restored.as_object();

  for (std::string_view fld : {"labels", "annotations"}) {
    auto rit = response_meta.find(fld);
    if (rit == response_meta.end() || rit->value().is_null()) {
      rm.erase(fld);
      continue;
    }
    if (!rit->value().is_object())
      return "invalid metadata." + std::string(fld) + " of type " + go_type(rit->value()) + " in converted object";
    const json::Object& response_field = rit->value().as_object();
    const json::Object* original_field = nullptr;
    if (auto oit = rm.find(fld); oit != rm.end() && !oit->value().is_null()) {
      if (!oit->value().is_object())
        return "invalid metadata." + std::string(fld) + " of type " + go_type(oit->value()) + " in original object";
      original_field = &oit->value().as_object();
    }
    bool changed = (original_field ? original_field->size() : 0) != response_field.size();
    for (const auto& kv : response_field) {
      if (!kv.value().is_string())
        return "metadata." + std::string(fld) + "[" + std::string(kv.key()) + "] must be a string, but is " +
               go_type(kv.value()) + " in converted object";
      const json::Value* before = original_field ? original_field->if_contains(kv.key()) : nullptr;
      if (!before || *before != kv.value()) changed = true;
    }
    if (changed) {
      std::vector<validation::Cause> errs;
      if (fld == "labels") {
        json::Value probe = json::Object{{"metadata", json::Object{{"labels", response_field}}}};
        errs = builtin::validate_labels(probe);
      } else {
        errs = validate_annotations(response_field);
      }
      if (!errs.empty()) return aggregate(errs);
    }
    rm[fld] = response_field;
  }
  co["metadata"] = std::move(restored);
  return {};
}

WebhookConverter::WebhookConverter(storage::Store& store) : client_(store) {}

void WebhookConverter::convert(const registry::ResourceInfo& r, std::vector<json::Value*>& objects,
                               std::string_view to_version) {
  const std::string desired = r.api_version(to_version);
  std::vector<json::Value*> pending;
  for (auto* o : objects)
    if (o && o->is_object() && json::get_string(*o, {"apiVersion"}) != desired) pending.push_back(o);
  if (pending.empty()) return;
  if (r.conversion_strategy != "Webhook") {
    for (auto* o : pending) o->as_object()["apiVersion"] = desired;
    return;
  }
  // Objects with nothing but apiVersion and kind are converted without a call (upstream's
  // special case for the cacher's empty-object smoke test).
  std::vector<json::Value*> send;
  for (auto* o : pending) {
    const auto& obj = o->as_object();
    if (obj.size() == 2 && obj.contains("apiVersion") && obj.contains("kind")) o->as_object()["apiVersion"] = desired;
    else send.push_back(o);
  }
  if (send.empty()) return;

  const bool list = send.size() > 1;
  const std::string in_gvk = gvk_string(json::get_string(*send[0], {"apiVersion"}), list ? r.list_kind : r.kind);
  const std::string prefix = "conversion webhook for " + in_gvk;
  const json::Value& cfg = r.conversion_webhook;

  std::vector<std::string> review_versions;
  if (const auto* a = json::get_array(cfg, {"conversionReviewVersions"}))
    for (const auto& v : *a)
      if (v.is_string()) review_versions.emplace_back(v.get_string());
  std::string review_version;
  for (const auto& v : review_versions)
    if (v == "v1" || v == "v1beta1") {
      review_version = v;
      break;
    }
  if (review_version.empty()) fail("no supported conversion review versions");

  ClientConfig cc = parse_client_config(json::find(cfg, {"clientConfig"}));
  std::string uid = rest::new_uid();
  json::Array objs;
  for (auto* o : send) objs.push_back(*o);
  json::Value review = json::Object{
      {"kind", "ConversionReview"},
      {"apiVersion", "apiextensions.k8s.io/" + review_version},
      {"request", json::Object{{"uid", uid}, {"desiredAPIVersion", desired}, {"objects", std::move(objs)}}}};

  auto started = std::chrono::steady_clock::now();
  std::string answer;
  try {
    answer = client_.post(cc, json::serialize(review), kConversionTimeout);
  } catch (const CallError& e) {
    fail(prefix + " failed: " + e.what());
  }
  auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
  if (elapsed.count() > 50 + 8 * static_cast<long long>(send.size())) {
    log::info("slow conversion webhook", {{"crd", r.crd_name}, {"desiredAPIVersion", desired},
                                          {"objects", send.size()}, {"ms", static_cast<long long>(elapsed.count())}});
  }

  std::string perr;
  auto parsed = json::try_parse(answer, &perr);
  if (!parsed || !parsed->is_object()) fail(prefix + " failed: couldn't get version/kind; json parse error: " + perr);
  const json::Value& v = *parsed;
  if (review_version == "v1") {
    std::string_view api = json::get_string(v, {"apiVersion"});
    std::string_view kind = json::get_string(v, {"kind"});
    if ((!api.empty() || !kind.empty()) && (api != "apiextensions.k8s.io/v1" || kind != "ConversionReview"))
      fail(prefix + " failed: expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got " +
           gvk_string(api, kind));
  }
  const json::Value* resp = json::find(v, {"response"});
  if (!resp || !resp->is_object()) fail(prefix + " failed: no response provided");
  if (review_version == "v1") {
    std::string_view got = json::get_string(*resp, {"uid"});
    if (got != uid) fail(prefix + " failed: expected response.uid=" + quoted(uid) + ", got " + quoted(got));
  }
  std::string_view status = json::get_string(*resp, {"result", "status"});
  if (status != "Success") {
    std::string_view message = json::get_string(*resp, {"result", "message"});
    if (!message.empty()) fail(prefix + " failed: " + std::string(message));
    fail(prefix + " failed: response.result.status was '" + std::string(status) + "', not 'Success'");
  }
  json::Array converted;
  if (const auto* c = json::get_array(*resp, {"convertedObjects"})) converted = *c;
  if (converted.size() != send.size())
    fail("conversion webhook for " + in_gvk + " returned " + std::to_string(converted.size()) + " objects, expected " +
         std::to_string(send.size()));

  // Check everything before changing any object: a failure leaves the batch untouched.
  std::vector<json::Value> results;
  results.reserve(send.size());
  for (std::size_t i = 0; i < send.size(); ++i) {
    const json::Value& original = *send[i];
    json::Value out = converted[i];
    // Upstream counts the index from 1 in these list messages (it increments first).
    std::string where = list ? prefix + " returned invalid converted object at index " + std::to_string(i + 1) + ": "
                             : prefix + " returned invalid object at index 0: ";
    if (!out.is_object()) {
      fail((list ? prefix + " returned invalid converted object at index " + std::to_string(i) + ": "
                 : prefix + " failed: ") +
           "json: cannot unmarshal " + go_type(out) + " into Go value of type map[string]interface {}");
    }
    std::string_view got_api = json::get_string(out, {"apiVersion"});
    if (got_api != desired)
      fail(where + "invalid groupVersion (expected " + desired + ", received " + std::string(got_api) + ")");
    std::string_view want_kind = json::get_string(original, {"kind"}), got_kind = json::get_string(out, {"kind"});
    if (want_kind != got_kind)
      fail(where + "invalid kind (expected " + std::string(want_kind) + ", received " + std::string(got_kind) + ")");
    if (auto err = validate_converted(original, out); !err.empty()) {
      fail(list ? prefix + " returned invalid converted object at index " + std::to_string(i + 1) + ": " + err
                : prefix + " returned invalid object: " + err);
    }
    if (auto err = restore_object_meta(original, out); !err.empty()) {
      fail(list ? prefix + " returned invalid metadata in object at index " + std::to_string(i + 1) + ": " + err
                : prefix + " returned invalid metadata: " + err);
    }
    results.push_back(std::move(out));
  }
  for (std::size_t i = 0; i < send.size(); ++i) *send[i] = std::move(results[i]);
}

}  // namespace capstan::apiserver::admission
