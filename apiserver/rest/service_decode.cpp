// Built-in kinds decode into Go structs in kube-apiserver: members no field holds are dropped
// (reported per fieldValidation), values of the wrong type refused. Each write path words it as
// the decoder kube runs there does: the body of a create/update (encoding/json), a JSON or merge
// patch's result (encoding/json, reported as an invalid `patch`), a strategic merge patch's result
// (the unstructured converter) and a server-side apply configuration (structured-merge-diff).
#include "runtime/gofmt/gofmt.h"
#include "apiserver/rest/service.h"
#include "apiserver/schema/prune.h"
#include "apiserver/schema/status.h"
#include "apiserver/typed/check.h"
#include "apiserver/typed/report.h"

#include <algorithm>

namespace capstan::apiserver::rest {
namespace {

std::vector<typed::Issue> check_builtin(const registry::ResourceInfo& r, std::string_view version, json::Value& obj,
                                        const typed::Options& o) {
  if (const auto* m = typed::kind_message(r.api_version(version), r.kind)) return typed::check(obj, *m, o);
  return typed::check_metadata(obj, r.kind, o);
}

void add_warnings(WriteOptions& o, const std::vector<std::string>& unknown) {
  // A patch retried after a concurrent write decodes again: warn once.
  for (auto& w : schema::unknown_field_warnings(unknown))
    if (std::find(o.warnings.begin(), o.warnings.end(), w) == o.warnings.end()) o.warnings.push_back(std::move(w));
}

// handlers.patcher's answer for a patched object that does not decode:
//   "" is invalid: patch: Invalid value: "<value>": <error>
ApiError invalid_patch(const std::string& value, const std::string& detail) {
  std::vector<Cause> causes{validation::field_invalid(FieldPath("patch"), json::Value(value), detail)};
  json::Value st = schema::invalid_status("", "", "", causes);
  ApiError e(422, "Invalid", std::string(json::get_string(st, {"message"})));
  if (const auto* d = json::get_object(st, {"details"})) e.details = *d;
  return e;
}

// The package of the internal version a built-in group decodes into (the "core.ConfigMap" of
// kube's conversion errors).
std::string internal_package(std::string_view group) {
  if (group.empty() || group == "events.k8s.io") return "core";
  auto dot = group.find('.');
  std::string_view head = dot == std::string_view::npos ? group : group.substr(0, dot);
  if (group == "rbac.authorization.k8s.io") return "rbac";
  return std::string(head);
}

std::string_view version_part(std::string_view api_version) {
  auto slash = api_version.find('/');
  return slash == std::string_view::npos ? api_version : api_version.substr(slash + 1);
}

std::string_view group_part(std::string_view api_version) {
  auto slash = api_version.find('/');
  return slash == std::string_view::npos ? std::string_view() : api_version.substr(0, slash);
}

std::string gvk_string(const registry::ResourceInfo& r, std::string_view version) {
  return r.group + "/" + std::string(version) + ", Kind=" + r.kind;
}

}  // namespace

void Service::check_body_type(const registry::ResourceInfo& r, std::string_view version, json::Value& body) {
  std::string want_api = r.api_version(version);
  auto& obj = body.as_object();
  std::string api(json::get_string(body, {"apiVersion"}));
  std::string kind(json::get_string(body, {"kind"}));
  if (r.crd) {
    if (kind.empty()) throw bad_request("Object 'Kind' is missing in '" + json::serialize(body).substr(0, 200) + "'");
    if (api != want_api || kind != r.kind)
      throw bad_request("the API version in the data (" + api + ") does not match the expected API version (" + want_api + ")");
    return;
  }
  // The decoder defaults what the body leaves out from the URL's group, version and kind.
  if (api.empty()) obj["apiVersion"] = api = want_api;
  if (kind.empty()) obj["kind"] = kind = r.kind;
  if (api == want_api && kind == r.kind) return;
  std::string err;
  auto other = registry_.find_kind(group_part(api), kind);
  if (other && other->version(version_part(api)) && kind != r.kind) {
    err = "converting (" + std::string(version_part(api)) + "." + kind + ") to (" + internal_package(r.group) + "." + r.kind +
          "): unknown conversion";
  } else if (other && other->version(version_part(api))) {
    err = "the API version in the data (" + api + ") does not match the expected API version (" + want_api + ")";
  } else {
    err = "no kind \"" + kind + "\" is registered for version \"" + api + "\" in scheme \"pkg/runtime/scheme.go:111\"";
  }
  throw bad_request(kind + " in version \"" + std::string(version_part(api)) + "\" cannot be handled as a " + r.kind + ": " + err);
}

void Service::decode_body(const registry::ResourceInfo& r, std::string_view version, json::Value& body, WriteOptions& o) {
  auto handled = [&](const std::string& what) {
    return bad_request(r.kind + " in version \"" + std::string(version) + "\" cannot be handled as a " + r.kind + ": " + what);
  };
  std::vector<std::string> duplicates;
  for (const auto& d : o.duplicate_fields) duplicates.push_back("duplicate field \"" + d + "\"");
  if (r.crd) {  // custom resources are pruned and checked by their schema; repeated members still count
    if (duplicates.empty() || o.field_validation == "Ignore") return;
    if (o.field_validation == "Strict") throw handled(schema::strict_decoding_error_of(duplicates));
    for (auto& d : duplicates) o.warnings.push_back(std::move(d));
    return;
  }
  auto issues = check_builtin(r, version, body, {});
  if (auto err = typed::go_json_error(issues)) throw handled(*err);
  auto unknown = typed::unknown_fields(issues);
  if ((unknown.empty() && duplicates.empty()) || o.field_validation == "Ignore") return;
  if (o.field_validation == "Strict") {
    std::vector<std::string> all;
    for (const auto& u : unknown) all.push_back("unknown field \"" + u + "\"");
    all.insert(all.end(), duplicates.begin(), duplicates.end());
    throw handled(schema::strict_decoding_error_of(all));
  }
  add_warnings(o, unknown);
  for (auto& d : duplicates)
    if (std::find(o.warnings.begin(), o.warnings.end(), d) == o.warnings.end()) o.warnings.push_back(std::move(d));
}

void Service::decode_patched(const registry::ResourceInfo& r, std::string_view version, PatchType type,
                             const json::Value& patch_doc, json::Value& patched, WriteOptions& o) {
  if (r.crd) return;
  if (type == PatchType::Apply) {
    // The configuration was checked by check_apply; the merged object converts silently.
    check_builtin(r, version, patched, {});
    return;
  }
  const bool strategic = type == PatchType::Strategic;
  // A JSON or merge patch yields JSON marshalled from a Go map (keys sorted); a strategic merge
  // patch converts a map into the struct field by field.
  typed::Options opts;
  opts.order = strategic ? typed::Options::Order::Schema : typed::Options::Order::Sorted;
  std::string original = strategic ? gofmt::format_v(patch_doc) : gofmt::json_marshal(patched);
  auto issues = check_builtin(r, version, patched, opts);
  auto err = strategic ? typed::converter_error(issues) : typed::go_json_error(issues);
  if (err) throw invalid_patch(original, *err);
  auto unknown = typed::unknown_fields(issues);
  if (unknown.empty() || o.field_validation == "Ignore") return;
  if (strategic) std::sort(unknown.begin(), unknown.end());  // the converter sorts its unknown-field errors
  if (o.field_validation == "Strict") throw invalid_patch(original, schema::strict_decoding_error(unknown));
  add_warnings(o, unknown);
}

void Service::check_apply(const registry::ResourceInfo& r, std::string_view version, const json::Value& doc) {
  if (r.crd) return;
  json::Value copy = doc;
  typed::Options opts;
  opts.order = typed::Options::Order::Sorted;
  opts.prune = false;
  opts.list_types = &list_types_for(r, version);
  auto errs = typed::smd_errors(check_builtin(r, version, copy, opts));
  if (!errs) return;
  // structuredmerge.Apply returns a plain error: kube-apiserver answers 500 with no reason.
  std::string ns(json::get_string(doc, {"metadata", "namespace"}));
  std::string name(json::get_string(doc, {"metadata", "name"}));
  throw ApiError(500, "", "failed to create typed patch object (" + ns + "/" + name + "; " + gvk_string(r, version) +
                              "): " + *errs);
}

}  // namespace capstan::apiserver::rest
