#include "apiserver/patch/managed_fields.h"

#include "runtime/gofmt/gofmt.h"
#include "runtime/json/patch.h"

#include <algorithm>
#include <chrono>
#include <map>

namespace capstan::apiserver::patch {

namespace {

using json::PatchError;

[[noreturn]] void bad(std::string message) { throw PatchError(PatchError::Kind::BadRequest, std::move(message)); }

std::string string_member(const json::Object& o, std::string_view name, std::size_t index) {
  const json::Value* v = o.if_contains(name);
  if (!v || v->is_null()) return {};
  if (!v->is_string()) bad("metadata.managedFields[" + std::to_string(index) + "]." + std::string(name) + " must be a string");
  return std::string(v->get_string());
}

long long seconds_of(const std::optional<meta::TimePoint>& t) {
  if (!t) return 0;
  return std::chrono::duration_cast<std::chrono::seconds>(t->time_since_epoch()).count();
}

}  // namespace

std::string manager_identifier(std::string_view manager, std::string_view operation, std::string_view api_version,
                               std::string_view subresource) {
  json::Object o;
  if (!manager.empty()) o.emplace("manager", manager);
  if (!operation.empty()) o.emplace("operation", operation);
  if (!api_version.empty() && operation != kOperationApply) o.emplace("apiVersion", api_version);
  if (!subresource.empty()) o.emplace("subresource", subresource);
  return json::serialize(o);
}

std::string ManagedFieldsEntry::identifier() const { return manager_identifier(manager, operation, api_version, subresource); }

std::string ManagedFieldsEntry::describe() const {
  std::string out = gofmt::quote(manager);
  if (!subresource.empty()) out += " with subresource " + gofmt::quote(subresource);
  if (operation == kOperationUpdate) out += " using " + api_version;
  return out;
}

json::Value ManagedFieldsEntry::to_json() const {
  json::Object o;
  if (!manager.empty()) o.emplace("manager", manager);
  if (!operation.empty()) o.emplace("operation", operation);
  if (!api_version.empty()) o.emplace("apiVersion", api_version);
  if (time) o.emplace("time", meta::format_rfc3339(*time));
  o.emplace("fieldsType", "FieldsV1");
  o.emplace("fieldsV1", fields.to_fields_v1());
  if (!subresource.empty()) o.emplace("subresource", subresource);
  return o;
}

std::vector<ManagedFieldsEntry> decode_managed_fields(const json::Value* managed_fields) {
  std::vector<ManagedFieldsEntry> out;
  if (!managed_fields || managed_fields->is_null()) return out;
  const auto* arr = managed_fields->if_array();
  if (!arr) bad("metadata.managedFields must be a list");
  for (std::size_t i = 0; i < arr->size(); ++i) {
    const auto* o = (*arr)[i].if_object();
    if (!o) bad("metadata.managedFields[" + std::to_string(i) + "] must be an object");
    ManagedFieldsEntry e;
    e.manager = string_member(*o, "manager", i);
    e.operation = string_member(*o, "operation", i);
    e.api_version = string_member(*o, "apiVersion", i);
    e.subresource = string_member(*o, "subresource", i);
    if (e.operation != kOperationApply && e.operation != kOperationUpdate) bad("operation must be `Apply` or `Update`");
    if (e.api_version.empty()) bad("apiVersion must not be empty");
    std::string fields_type = string_member(*o, "fieldsType", i);
    if (fields_type.empty()) bad("missing fieldsType in managed fields entry " + std::to_string(i));
    if (fields_type != "FieldsV1") bad("invalid fieldsType " + gofmt::quote(fields_type) + " in managed fields entry " + std::to_string(i));
    std::string time = string_member(*o, "time", i);
    if (!time.empty()) {
      auto t = meta::parse_rfc3339(time);
      if (!t) bad("metadata.managedFields[" + std::to_string(i) + "].time: invalid time " + gofmt::quote(time));
      e.time = std::chrono::time_point_cast<meta::Clock::duration>(std::chrono::floor<std::chrono::seconds>(*t));
    }
    if (const json::Value* f = o->if_contains("fieldsV1")) e.fields = FieldSet::from_fields_v1(*f);
    // Two entries for one manager identity: keep both sets under one entry.
    auto same = std::find_if(out.begin(), out.end(), [&](const ManagedFieldsEntry& x) { return x.identifier() == e.identifier(); });
    if (same != out.end()) {
      same->fields = same->fields.unite(e.fields);
      if (seconds_of(e.time) > seconds_of(same->time)) same->time = e.time;
    } else {
      out.push_back(std::move(e));
    }
  }
  return out;
}

json::Array encode_managed_fields(std::vector<ManagedFieldsEntry> entries) {
  entries.erase(std::remove_if(entries.begin(), entries.end(), [](const ManagedFieldsEntry& e) { return e.fields.empty(); }),
                entries.end());
  // kube's scale handler converts a Scale's managed fields back to the parent's without a time.
  for (auto& e : entries)
    if (e.subresource == "scale") e.time.reset();
  std::stable_sort(entries.begin(), entries.end(), [](const ManagedFieldsEntry& p, const ManagedFieldsEntry& q) {
    if (p.operation != q.operation) return p.operation < q.operation;
    if (seconds_of(p.time) != seconds_of(q.time)) return seconds_of(p.time) < seconds_of(q.time);
    if (p.manager != q.manager) return p.manager < q.manager;
    if (p.api_version != q.api_version) return p.api_version < q.api_version;
    return p.subresource < q.subresource;
  });
  json::Array out;
  out.reserve(entries.size());
  for (const auto& e : entries) out.push_back(e.to_json());
  return out;
}

void set_managed_fields(json::Value& obj, json::Array managed_fields) {
  if (!obj.is_object()) return;
  if (managed_fields.empty()) {
    if (auto* meta = obj.get_object().if_contains("metadata"); meta && meta->is_object()) meta->get_object().erase("managedFields");
    return;
  }
  json::ensure_object(obj, {"metadata"})["managedFields"] = std::move(managed_fields);
}

const FieldSet& stripped_fields() {
  static const FieldSet set = [] {
    FieldSet s;
    s.insert({PathElement::field("apiVersion")});
    s.insert({PathElement::field("kind")});
    s.insert({PathElement::field("metadata")});
    for (const char* f : {"name", "namespace", "creationTimestamp", "selfLink", "uid", "clusterName", "generation",
                          "managedFields", "resourceVersion"}) {
      s.insert({PathElement::field("metadata"), PathElement::field(f)});
    }
    return s;
  }();
  return set;
}

void cap_update_managers(std::vector<ManagedFieldsEntry>& entries, std::size_t max_updaters) {
  std::vector<std::size_t> updaters;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].operation != kOperationApply) updaters.push_back(i);
  }
  if (updaters.size() <= max_updaters) return;
  std::stable_sort(updaters.begin(), updaters.end(), [&](std::size_t a, std::size_t b) {
    long long ta = seconds_of(entries[a].time), tb = seconds_of(entries[b].time);
    if (ta != tb) return ta < tb;
    return entries[a].identifier() < entries[b].identifier();
  });
  constexpr std::string_view kBucket = "ancient-changes";
  auto is_bucket = [&](const ManagedFieldsEntry& e) {
    return e.manager == kBucket && e.operation == kOperationUpdate && e.subresource.empty();
  };
  std::map<std::string, std::size_t> first_of_version;   // apiVersion -> oldest updater seen
  std::map<std::string, std::size_t> bucket_of_version;  // apiVersion -> the "ancient-changes" entry
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (is_bucket(entries[i])) bucket_of_version.emplace(entries[i].api_version, i);
  }
  std::vector<bool> drop(entries.size(), false);
  std::size_t length = updaters.size();
  for (std::size_t n = 0; n < updaters.size() && length > max_updaters; ++n) {
    std::size_t i = updaters[n];
    const std::string version = entries[i].api_version;
    if (!first_of_version.count(version)) {
      first_of_version.emplace(version, i);
      continue;
    }
    if (!bucket_of_version.count(version)) {
      std::size_t f = first_of_version[version];
      entries[f].manager = std::string(kBucket);
      entries[f].subresource.clear();
      bucket_of_version.emplace(version, f);
    }
    std::size_t b = bucket_of_version[version];
    if (b == i) continue;
    entries[b].fields = entries[i].fields.unite(entries[b].fields);
    entries[b].time = entries[i].time;
    drop[i] = true;
    --length;
  }
  std::vector<ManagedFieldsEntry> kept;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (!drop[i]) kept.push_back(std::move(entries[i]));
  }
  entries = std::move(kept);
}

}  // namespace capstan::apiserver::patch
