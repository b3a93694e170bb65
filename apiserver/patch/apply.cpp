#include "apiserver/patch/apply.h"

#include "runtime/gofmt/gofmt.h"
#include "apiserver/patch/structured.h"

#include <algorithm>
#include <map>
#include <utility>

namespace capstan::apiserver::patch {

namespace {

using json::Object;
using json::Value;

// ---- conflicts ------------------------------------------------------------------------------------

std::string conflict_message(const std::vector<ManagerConflict>& conflicts) {
  if (conflicts.size() == 1) {
    return "Apply failed with 1 conflict: conflict with " + conflicts[0].manager.describe() + ": " + conflicts[0].field;
  }
  // Grouped by manager identity, sorted (getConflictMessage).
  std::map<std::string, std::vector<const ManagerConflict*>> by_manager;
  for (const auto& c : conflicts) by_manager[c.manager.identifier()].push_back(&c);
  std::string out = "Apply failed with " + std::to_string(conflicts.size()) + " conflicts: ";
  bool first = true;
  for (const auto& [id, list] : by_manager) {
    if (!first) out += "\n";
    first = false;
    out += "conflicts with " + list.front()->manager.describe() + ":";
    for (const auto* c : list) out += "\n- " + c->field;
  }
  return out;
}

// ---- object helpers -------------------------------------------------------------------------------

Value without_managed_fields(const Value& obj) {
  Value out = obj;
  if (auto* o = out.if_object()) {
    if (auto* meta = o->if_contains("metadata"); meta && meta->is_object()) meta->get_object().erase("managedFields");
  }
  return out;
}

// Null members the configuration set: the applier owns them and they are stored as absent (what
// decoding into the Go types does). Nulls already in the live object are left alone.
void drop_config_nulls(Value& merged, const Value& config, const ListTypes& types, FieldPath& schema) {
  if (merged.is_object() && config.is_object()) {
    auto& m = merged.get_object();
    for (const auto& kv : config.get_object()) {
      auto it = m.find(kv.key());
      if (it == m.end()) continue;
      if (kv.value().is_null()) {
        if (it->value().is_null()) m.erase(it);
        continue;
      }
      schema.emplace_back(kv.key());
      drop_config_nulls(it->value(), kv.value(), types, schema);
      schema.pop_back();
    }
    return;
  }
  if (merged.is_array() && config.is_array()) {
    ListType lt = types.at(schema);
    if (lt.kind != ListKind::Map) return;
    schema.emplace_back(kListElement);
    for (const auto& item : config.get_array()) {
      auto pe = list_item_element(item, lt);
      if (!pe) continue;
      for (auto& target : merged.get_array()) {
        auto tpe = list_item_element(target, lt);
        if (tpe && *tpe == *pe) {
          drop_config_nulls(target, item, types, schema);
          break;
        }
      }
    }
    schema.pop_back();
  }
}

const Value* annotation(const Value& obj, std::string_view key) {
  const Object* ann = json::get_object(obj, {"metadata", "annotations"});
  return ann ? ann->if_contains(key) : nullptr;
}

Comparison filtered(Comparison c, const FieldSet* ignored) {
  if (!ignored || ignored->empty()) return c;
  c.added = c.added.recursive_difference(*ignored);
  c.modified = c.modified.recursive_difference(*ignored);
  c.removed = c.removed.recursive_difference(*ignored);
  return c;
}

using Managers = std::vector<ManagedFieldsEntry>;

ManagedFieldsEntry* find_manager(Managers& managers, const std::string& id) {
  for (auto& m : managers) {
    if (m.identifier() == id) return &m;
  }
  return nullptr;
}

void drop_empty(Managers& managers) {
  managers.erase(std::remove_if(managers.begin(), managers.end(), [](const ManagedFieldsEntry& m) { return m.fields.empty(); }),
                 managers.end());
}

// The fields of the client-side apply annotation whose values still match the live object: kubectl's
// server-side apply may take those over without a conflict (lastAppliedManager).
FieldSet allowed_from_last_applied(const Value& live, const ListTypes& types) {
  const Value* ann = annotation(live, kLastAppliedAnnotation);
  if (!ann || !ann->is_string()) return {};
  auto last = json::try_parse(ann->get_string());
  if (!last || !last->is_object()) return {};
  FieldSet set = field_set_of(*last, types);
  Comparison c = compare(*last, live, types);
  return set.difference(c.modified).difference(c.added).difference(c.removed);
}

// buildLastApplied: the configuration without the annotation, as encoding/json writes it, plus "\n".
std::string build_last_applied(const Value& config) {
  Value copy = config;
  if (auto* meta = copy.get_object().if_contains("metadata"); meta && meta->is_object()) {
    if (auto* ann = meta->get_object().if_contains("annotations"); ann && ann->is_object()) {
      ann->get_object().erase(kLastAppliedAnnotation);
    }
  }
  return gofmt::json_marshal(copy) + "\n";
}

// update() over the sets of every manager but `skip_id` (structured-merge-diff Updater.update);
// returns the conflicts when not forced.
std::vector<ManagerConflict> take_changed_fields(Managers& managers, const std::string& skip_id, const Comparison& cmp,
                                                 bool force) {
  FieldSet changed = cmp.modified.unite(cmp.added);
  std::vector<ManagerConflict> conflicts;
  for (auto& m : managers) {
    if (m.identifier() == skip_id) continue;
    FieldSet c = m.fields.intersect(changed);
    if (c.empty()) continue;
    if (!force) {
      ManagedFieldsEntry who = m;
      who.fields = {};
      for (const auto& p : c.paths()) conflicts.push_back({who, to_string(p), p});
    }
  }
  if (!conflicts.empty()) return conflicts;
  for (auto& m : managers) {
    if (m.identifier() == skip_id) continue;
    m.fields = m.fields.difference(changed).difference(cmp.removed);
  }
  drop_empty(managers);
  return {};
}

void sort_conflicts(std::vector<ManagerConflict>& conflicts) {
  std::stable_sort(conflicts.begin(), conflicts.end(),
                   [](const ManagerConflict& a, const ManagerConflict& b) { return a.manager.identifier() < b.manager.identifier(); });
}

std::vector<ManagerConflict> without_allowed(const std::vector<ManagerConflict>& conflicts, const FieldSet& allowed) {
  std::vector<ManagerConflict> out;
  for (const auto& c : conflicts) {
    if (!allowed.has(c.path)) out.push_back(c);
  }
  return out;
}

}  // namespace

// ---- ConflictError --------------------------------------------------------------------------------

ConflictError::ConflictError(std::vector<ManagerConflict> conflicts)
    : std::runtime_error(conflict_message(conflicts)), conflicts_(std::move(conflicts)) {}

json::Value ConflictError::status() const {
  json::Array causes;
  for (const auto& c : conflicts_) {
    Object cause;
    cause.emplace("reason", "FieldManagerConflict");
    cause.emplace("message", "conflict with " + c.manager.describe());
    cause.emplace("field", c.field);
    causes.push_back(std::move(cause));
  }
  Object details;
  details.emplace("causes", std::move(causes));
  Object status;
  status.emplace("kind", "Status");
  status.emplace("apiVersion", "v1");
  status.emplace("metadata", Object{});
  status.emplace("status", "Failure");
  status.emplace("message", what());
  status.emplace("reason", "Conflict");
  status.emplace("details", std::move(details));
  status.emplace("code", 409);
  return status;
}

// ---- apply ----------------------------------------------------------------------------------------

ApplyResult apply(const json::Value* live, const json::Value& config, std::string_view manager, bool force,
                  std::string_view api_version, const ListTypes& types, meta::TimePoint now, const ApplyOptions& options) {
  if (!config.is_object()) throw PatchError(PatchError::Kind::BadRequest, "apply patch must be a JSON or YAML object");
  if (const Value* mf = json::find(config, {"metadata", "managedFields"}); mf && !mf->is_null()) {
    throw PatchError(PatchError::Kind::BadRequest, "metadata.managedFields must be nil");
  }
  std::string_view config_version = json::get_string(config, {"apiVersion"});
  if (config_version != api_version) {
    throw PatchError(PatchError::Kind::BadRequest, "Incorrect version specified in apply patch. Specified patch version: " +
                                                       std::string(config_version) + ", expected: " + std::string(api_version));
  }

  const Value empty = Object{};
  const Value& live_obj = live ? *live : empty;
  Managers managers;
  try {
    managers = decode_managed_fields(json::find(live_obj, {"metadata", "managedFields"}));
  } catch (const PatchError& e) {
    throw PatchError(PatchError::Kind::Internal, std::string("failed to decode managed fields: ") + e.what());
  }
  const Value live_c = without_managed_fields(live_obj);

  // An object nobody tracks yet: what it holds so far belongs to "before-first-apply".
  if (live && managers.empty()) {
    Comparison c = filtered(compare(empty, live_c, types), options.ignored);
    FieldSet owned = c.added.unite(c.modified).difference(stripped_fields());
    if (!owned.empty()) {
      managers.push_back({"before-first-apply", std::string(kOperationUpdate), std::string(api_version), now, "", std::move(owned)});
    }
  }

  const std::string id = manager_identifier(manager, kOperationApply, "", options.subresource);
  FieldSet last;
  if (auto* prev = find_manager(managers, id)) last = prev->fields;

  FieldSet applied;
  try {
    applied = field_set_of(config, types, /*strict=*/true);
  } catch (const PatchError& e) {
    std::string group_version(config_version);
    if (group_version.find('/') == std::string::npos) group_version = "/" + group_version;
    throw PatchError(PatchError::Kind::BadRequest, "failed to create typed patch object (" + group_version +
                                                       ", Kind=" + std::string(json::get_string(config, {"kind"})) + "): " + e.what());
  }
  if (options.ignored) applied = applied.recursive_difference(*options.ignored);
  Value merged = merge(live_c, config, types);

  // Fields applied last time and not now leave the object unless somebody still owns them.
  if (!last.empty()) {
    FieldSet owned = applied;
    for (const auto& m : managers) {
      if (m.identifier() != id) owned = owned.unite(m.fields);
    }
    FieldSet gone = ensure_named_fields_are_members(last, types).difference(ensure_named_fields_are_members(owned, types));
    if (!gone.empty()) merged = remove_items(merged, gone, types);
  }

  Comparison cmp = filtered(compare(live_c, merged, types), options.ignored);
  auto conflicts = take_changed_fields(managers, id, cmp, force);
  if (!conflicts.empty()) {
    sort_conflicts(conflicts);
    bool forgiven = false;
    if (manager == "kubectl" && annotation(live_c, kLastAppliedAnnotation)) {
      auto remaining = without_allowed(conflicts, allowed_from_last_applied(live_c, types));
      if (remaining.empty()) forgiven = true;
      else conflicts = std::move(remaining);
    }
    if (!forgiven) throw ConflictError(std::move(conflicts));
    take_changed_fields(managers, id, cmp, /*force=*/true);
  }

  Value result = std::move(merged);
  FieldPath schema;
  drop_config_nulls(result, config, types, schema);
  bool object_changed = !json::deep_equal(result, live_c);

  ManagedFieldsEntry entry;
  if (auto* prev = find_manager(managers, id)) {
    entry = *prev;
    managers.erase(managers.begin() + (prev - managers.data()));
  }
  entry.manager = std::string(manager);
  entry.operation = std::string(kOperationApply);
  entry.api_version = std::string(api_version);
  entry.subresource = options.subresource;
  entry.fields = applied.difference(stripped_fields());
  if (object_changed) entry.time = now;
  if (!entry.fields.empty()) managers.push_back(std::move(entry));

  // kubectl's server-side apply keeps a client-side apply annotation in step (lastAppliedUpdater).
  if (manager == "kubectl" && annotation(result, kLastAppliedAnnotation)) {
    Object& annotations = json::ensure_object(result, {"metadata", "annotations"});
    annotations[kLastAppliedAnnotation] = build_last_applied(config);
    // Dropped instead when the annotations would exceed their 256 KiB total (setLastApplied).
    std::size_t total = 0;
    for (const auto& kv : annotations) {
      total += kv.key().size() + (kv.value().is_string() ? kv.value().get_string().size() : 0);
    }
    if (total > 256 * 1024) annotations.erase(kLastAppliedAnnotation);
  }

  cap_update_managers(managers, options.max_update_managers);
  ApplyResult out;
  out.object = json::deep_equal(result, live_c) ? live_c : std::move(result);
  set_managed_fields(out.object, encode_managed_fields(std::move(managers)));
  out.changed = !live || !json::deep_equal(out.object, *live);
  return out;
}

// ---- update ---------------------------------------------------------------------------------------

json::Array update(const json::Value* old, const json::Value& updated, std::string_view manager, std::string_view operation,
                   std::string_view subresource, std::string_view api_version, meta::TimePoint now, const ListTypes& types,
                   const UpdateOptions& options) {
  try {
    const Value empty = Object{};
    const Value& old_obj = old ? *old : empty;
    // decodeManagedFields: the request's managedFields when it sets some (not on subresources), none
    // when it resets them ([] or [{}]), else the live object's.
    Managers managers;
    bool decided = false;
    const Value* requested = subresource.empty() ? json::find(updated, {"metadata", "managedFields"}) : nullptr;
    if (requested && requested->is_array()) {
      const json::Array& list = requested->get_array();
      if (list.empty() || (list.size() == 1 && list[0].is_object() && list[0].get_object().empty())) {
        decided = true;
      } else {
        try {
          managers = decode_managed_fields(requested);
          decided = !managers.empty();
        } catch (const PatchError&) {
          managers.clear();
        }
      }
    }
    if (!decided) {
      try {
        managers = decode_managed_fields(json::find(old_obj, {"metadata", "managedFields"}));
      } catch (const PatchError&) {
        managers.clear();
      }
    }
    // An existing object that nobody tracks stays untracked until someone applies.
    if (managers.empty() && old && !json::get_string(old_obj, {"metadata", "uid"}).empty()) return {};

    Comparison cmp = filtered(compare(without_managed_fields(old_obj), without_managed_fields(updated), types), options.ignored);
    FieldSet changed = cmp.modified.unite(cmp.added);
    for (auto& m : managers) m.fields = m.fields.difference(changed).difference(cmp.removed);

    FieldSet mine = changed.difference(cmp.removed);
    if (options.ignored) mine = mine.recursive_difference(*options.ignored);
    mine = mine.difference(stripped_fields());

    std::string name = manager.empty() ? std::string("unknown") : std::string(manager);
    std::string id = manager_identifier(name, operation, api_version, subresource);
    if (!mine.empty()) {
      ManagedFieldsEntry* prev = find_manager(managers, id);
      if (!prev) {
        managers.push_back({name, std::string(operation), std::string(api_version), std::nullopt, std::string(subresource), {}});
        prev = &managers.back();
      }
      prev->fields = mine.unite(prev->fields);
      prev->time = now;
    }
    drop_empty(managers);
    cap_update_managers(managers, options.max_update_managers);
    return encode_managed_fields(std::move(managers));
  } catch (const PatchError&) {
    return {};
  }
}

}  // namespace capstan::apiserver::patch
