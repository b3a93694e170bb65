// Built-in kinds decode into Go structs in kube-apiserver: members no field holds are dropped
// (reported per fieldValidation), values of the wrong type refused. Each write path words it as
// the decoder kube runs there does: the body of a create/update (encoding/json), a JSON or merge
// patch's result (encoding/json, reported as an invalid `patch`), a strategic merge patch's result
// (the unstructured converter) and a server-side apply configuration (structured-merge-diff).
#include "apiserver/gofmt/gofmt.h"
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
  std::vector<Cause> causes{schema::field_invalid(FieldPath("patch"), json::Value(value), detail)};
  json::Value st = schema::invalid_status("", "", "", causes);
  ApiError e(422, "Invalid", std::string(json::get_string(st, {"message"})));
  if (const auto* d = json::get_object(st, {"details"})) e.details = *d;
  return e;
}

std::string gvk_string(const registry::ResourceInfo& r, std::string_view version) {
  return r.group + "/" + std::string(version) + ", Kind=" + r.kind;
}

}  // namespace

void Service::decode_body(const registry::ResourceInfo& r, std::string_view version, json::Value& body, WriteOptions& o) {
  if (r.crd) return;  // custom resources are pruned and checked by their schema
  auto issues = check_builtin(r, version, body, {});
  auto handled = [&](const std::string& what) {
    return bad_request(r.kind + " in version \"" + std::string(version) + "\" cannot be handled as a " + r.kind + ": " + what);
  };
  if (auto err = typed::go_json_error(issues)) throw handled(*err);
  auto unknown = typed::unknown_fields(issues);
  if (unknown.empty() || o.field_validation == "Ignore") return;
  if (o.field_validation == "Strict") throw handled(schema::strict_decoding_error(unknown));
  add_warnings(o, unknown);
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
