#include "apiserver/admission/admission_review.h"

#include "runtime/meta/base64.h"

namespace capstan::apiserver::admission {
namespace {

json::Object gvk_json(const GroupVersionKind& k) {
  return json::Object{{"group", k.group}, {"version", k.version}, {"kind", k.kind}};
}

json::Object gvr_json(const GroupVersionResource& r) {
  return json::Object{{"group", r.group}, {"version", r.version}, {"resource", r.resource}};
}

std::string quoted(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out.append(1, '"').append(s).append(1, '"');
  return out;
}

}  // namespace

std::optional<std::string> pick_review_version(const std::vector<std::string>& versions) {
  for (const auto& v : versions)
    if (v == "v1" || v == "v1beta1") return v;
  return std::nullopt;
}

json::Value build_admission_review(std::string_view review_version, const ReviewRequest& r) {
  json::Object req;
  req["uid"] = r.uid;
  req["kind"] = gvk_json(r.kind);
  req["resource"] = gvr_json(r.resource);
  if (!r.sub_resource.empty()) req["subResource"] = r.sub_resource;
  req["requestKind"] = gvk_json(r.request_kind);
  req["requestResource"] = gvr_json(r.request_resource);
  if (!r.request_sub_resource.empty()) req["requestSubResource"] = r.request_sub_resource;
  if (!r.name.empty()) req["name"] = r.name;
  if (!r.ns.empty()) req["namespace"] = r.ns;
  req["operation"] = r.operation;
  req["userInfo"] = r.user ? rest::user_info_json(*r.user) : json::Object{};
  req["object"] = r.object ? *r.object : json::Value(nullptr);
  req["oldObject"] = r.old_object ? *r.old_object : json::Value(nullptr);
  req["dryRun"] = r.dry_run;
  req["options"] = r.options && !r.options->is_null() ? *r.options : json::Value(nullptr);
  return json::Object{{"kind", "AdmissionReview"},
                      {"apiVersion", "admission.k8s.io/" + std::string(review_version)},
                      {"request", std::move(req)}};
}

std::string gvk_string(std::string_view api_version, std::string_view kind) {
  std::string group, version;
  if (auto slash = api_version.find('/'); slash != std::string_view::npos) {
    group = api_version.substr(0, slash);
    version = api_version.substr(slash + 1);
  } else {
    version = api_version;
  }
  return group + "/" + version + ", Kind=" + std::string(kind);
}

std::optional<std::string> decode_base64_bytes(std::string_view text, std::string* error) {
  auto valid = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/' || c == '=';
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' || text[i] == '\n') continue;
    if (!valid(text[i])) {
      if (error) *error = "illegal base64 data at input byte " + std::to_string(i);
      return std::nullopt;
    }
  }
  auto out = meta::base64_decode(text);
  if (!out && error) *error = "illegal base64 data at input byte " + std::to_string(text.size());
  return out;
}

ReviewResponse parse_admission_response(std::string_view body, std::string_view review_version, std::string_view uid,
                                        bool mutating) {
  std::string perr;
  auto parsed = json::try_parse(body, &perr);
  if (!parsed) throw ReviewDecodeError("couldn't get version/kind; json parse error: " + perr);
  if (!parsed->is_object() && !parsed->is_null()) {
    std::string type = parsed->is_array() ? "array" : parsed->is_string() ? "string" : parsed->is_bool() ? "bool" : "number";
    throw ReviewDecodeError("couldn't get version/kind; json parse error: json: cannot unmarshal " + type +
                            " into Go value of type struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; "
                            "Kind string \"json:\\\"kind,omitempty\\\"\" }");
  }
  if (parsed->is_null()) throw ReviewInvalidError("webhook response was absent");
  const json::Value& v = *parsed;
  const json::Value* resp = json::find(v, {"response"});
  if (!resp || resp->is_null()) throw ReviewInvalidError("webhook response was absent");
  if (!resp->is_object()) throw ReviewDecodeError("json: cannot unmarshal into Go struct field AdmissionReview.response");

  ReviewResponse out;
  const json::Value* patch = json::find(*resp, {"patch"});
  bool has_patch_text = patch && patch->is_string() && !patch->get_string().empty();
  if (has_patch_text) {
    std::string err;
    auto decoded = decode_base64_bytes(patch->get_string(), &err);
    if (!decoded) throw ReviewDecodeError(err);
    out.patch = std::move(*decoded);
  }
  const json::Value* patch_type = json::find(*resp, {"patchType"});
  bool has_patch_type = patch_type && !patch_type->is_null();

  if (review_version == "v1") {
    std::string_view got_uid = json::get_string(*resp, {"uid"});
    if (got_uid != uid) throw ReviewInvalidError("expected response.uid=" + quoted(uid) + ", got " + quoted(got_uid));
    std::string_view api = json::get_string(v, {"apiVersion"});
    std::string_view kind = json::get_string(v, {"kind"});
    // A missing apiVersion/kind decodes as the requested type (the decoder defaults it).
    if ((!api.empty() || !kind.empty()) && (api != "admission.k8s.io/v1" || kind != "AdmissionReview")) {
      throw ReviewInvalidError("expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got " +
                               gvk_string(api, kind));
    }
    if (mutating) {
      if (!out.patch.empty() && !has_patch_type) throw ReviewInvalidError("webhook returned response.patch but not response.patchType");
      if (out.patch.empty() && has_patch_type) throw ReviewInvalidError("webhook returned response.patchType but not response.patch");
      if (has_patch_type) {
        std::string_view pt = patch_type->is_string() ? std::string_view(patch_type->get_string()) : std::string_view();
        if (pt.empty()) throw ReviewInvalidError("webhook returned invalid response.patchType of \"\"");
        out.patch_type = pt;
      }
    } else {
      if (!out.patch.empty()) throw ReviewInvalidError("validating webhook may not return response.patch");
      if (has_patch_type) throw ReviewInvalidError("validating webhook may not return response.patchType");
    }
  } else {
    // v1beta1 did not verify the uid, the kind or the patch type.
    if (!mutating) out.patch.clear();
    else if (!out.patch.empty()) out.patch_type = "JSONPatch";
  }
  out.allowed = json::get_bool(*resp, {"allowed"});
  if (const auto* st = json::find(*resp, {"status"}); st && st->is_object()) out.status = *st;
  if (const auto* w = json::get_array(*resp, {"warnings"}))
    for (const auto& s : *w)
      if (s.is_string()) out.warnings.emplace_back(s.get_string());
  return out;
}

}  // namespace capstan::apiserver::admission
