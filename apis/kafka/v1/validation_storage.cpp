// KafkaNodePool storage validation (Strimzi's StorageDiff and JBOD rules): a single volume
// (ephemeral, persistent-claim) or JBOD volumes with unique ids, each claim sized by a quantity;
// on update the storage type, a volume's type and StorageClass and the volume holding the KRaft
// metadata log are kept, and no claim shrinks.
#include "apis/kafka/v1/types.h"
#include "apis/kafka/v1/validation.h"
#include "runtime/meta/quantity.h"

#include <map>
#include <set>

namespace capstan::apis::kafka::v1 {
namespace {

using validation::FieldPath;
using Causes = std::vector<validation::Cause>;

json::Value jstr(std::string_view s) { return json::Value(std::string(s)); }

const json::Value* member(const json::Value* v, std::string_view key) {
  if (!v || !v->is_object()) return nullptr;
  const json::Value* m = json::find(*v, {key});
  return m && !m->is_null() ? m : nullptr;
}
std::string_view member_string(const json::Value* v, std::string_view key) {
  const auto* m = member(v, key);
  return m && m->is_string() ? std::string_view(m->get_string()) : std::string_view();
}
std::optional<std::int64_t> member_int(const json::Value* v, std::string_view key) {
  const auto* m = member(v, key);
  return m && m->is_int64() ? std::optional<std::int64_t>(m->as_int64()) : std::nullopt;
}

// A single volume's members: a persistent claim needs a size, sizes are quantities, and the
// members of the other type are refused.
void validate_volume(const json::Value* v, const FieldPath& path, Causes& out) {
  const std::string_view type = member_string(v, "type");
  auto check_size = [&](std::string_view key) {
    std::string_view s = member_string(v, key);
    if (s.empty()) return;
    auto b = meta::quantity_value(s);
    if (!b) out.push_back(validation::field_invalid(path.child(key), jstr(s), "must be a quantity such as 100Gi"));
    else if (*b <= 0) out.push_back(validation::field_invalid(path.child(key), jstr(s), "must be greater than zero"));
  };
  check_size("size");
  check_size("sizeLimit");
  if (type == "persistent-claim") {
    if (member_string(v, "size").empty()) out.push_back(validation::field_required(path.child("size"), "a persistent-claim storage needs a size"));
    if (member(v, "sizeLimit")) out.push_back(validation::field_forbidden(path.child("sizeLimit"), "only for ephemeral storage"));
  } else {
    for (std::string_view key : {"size", "class", "deleteClaim"})
      if (member(v, key)) out.push_back(validation::field_forbidden(path.child(key), "only for persistent-claim storage"));
  }
  if (member(v, "volumes")) out.push_back(validation::field_forbidden(path.child("volumes"), "only for jbod storage"));
}

// The volumes of JBOD storage: at least one, at most kMaxJbodVolumes, ids unique, one KRaft
// metadata volume at most, no JBOD inside JBOD.
void validate_jbod(const json::Value* st, const FieldPath& path, Causes& out) {
  for (std::string_view key : {"id", "size", "sizeLimit", "class", "deleteClaim", "kraftMetadata"})
    if (member(st, key)) out.push_back(validation::field_forbidden(path.child(key), "jbod storage sets this on each of its volumes"));
  const json::Value* volumes = member(st, "volumes");
  const FieldPath vpath = path.child("volumes");
  if (!volumes || !volumes->is_array() || volumes->get_array().empty()) {
    out.push_back(validation::field_required(vpath, "jbod storage needs at least one volume"));
    return;
  }
  const auto& arr = volumes->get_array();
  if (static_cast<std::int64_t>(arr.size()) > kMaxJbodVolumes) {
    out.push_back(validation::field_too_many(vpath, static_cast<std::int64_t>(arr.size()), kMaxJbodVolumes));
    return;
  }
  std::set<std::int64_t> ids;
  std::optional<std::size_t> metadata;
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const FieldPath p = vpath.index(i);
    const std::string_view type = member_string(&arr[i], "type");
    if (type != "ephemeral" && type != "persistent-claim") {
      out.push_back(validation::field_not_supported(p.child("type"), jstr(type), {"ephemeral", "persistent-claim"}));
      continue;
    }
    const auto id = member_int(&arr[i], "id");
    if (!id) out.push_back(validation::field_required(p.child("id"), "each volume of jbod storage needs an id"));
    else if (*id < 0 || *id > kMaxVolumeId)
      out.push_back(validation::field_invalid(p.child("id"), json::Value(*id), "must be between 0 and " + std::to_string(kMaxVolumeId) + ", inclusive"));
    else if (!ids.insert(*id).second) out.push_back(validation::field_duplicate(p.child("id"), json::Value(*id)));
    if (!member_string(&arr[i], "kraftMetadata").empty()) {
      if (metadata)
        out.push_back(validation::field_invalid(p.child("kraftMetadata"), jstr(member_string(&arr[i], "kraftMetadata")),
                                                "only one volume holds the KRaft metadata log (volumes[" + std::to_string(*metadata) + "] does)"));
      else metadata = i;
    }
    validate_volume(&arr[i], p, out);
  }
}

// The volumes of `st` by id (a single volume as id -1), for comparing an update with the stored object.
std::map<std::int64_t, const json::Value*> volumes_by_id(const json::Value* st) {
  std::map<std::int64_t, const json::Value*> out;
  if (member_string(st, "type") != "jbod") {
    if (st) out[-1] = st;
    return out;
  }
  if (const json::Value* volumes = member(st, "volumes"); volumes && volumes->is_array())
    for (const auto& v : volumes->get_array())
      if (auto id = member_int(&v, "id")) out[*id] = &v;
  return out;
}

}  // namespace

std::optional<std::int64_t> kraft_metadata_volume(const json::Value* storage) {
  const auto volumes = volumes_by_id(storage);
  if (volumes.empty()) return std::nullopt;
  for (const auto& [id, v] : volumes)
    if (!member_string(v, "kraftMetadata").empty()) return id;
  return volumes.begin()->first;
}

void validate_node_pool_storage(const json::Value* st, const json::Value* old, const FieldPath& path, Causes& out) {
  const std::string_view type = member_string(st, "type");
  if (!st) {
    out.push_back(validation::field_required(path, ""));
    return;
  }
  if (type == "jbod") validate_jbod(st, path, out);
  else if (type == "ephemeral" || type == "persistent-claim") validate_volume(st, path, out);
  else out.push_back(validation::field_not_supported(path.child("type"), jstr(type), {"ephemeral", "jbod", "persistent-claim"}));
  const std::string_view otype = member_string(old, "type");
  if (!old || otype.empty()) return;
  if (!type.empty() && type != otype) {
    out.push_back(validation::field_invalid(path.child("type"), jstr(type),
                                            "field is immutable: changing the storage type of a node pool is not supported (was " +
                                                std::string(otype) + ")"));
    return;
  }
  const auto before = volumes_by_id(old);
  const auto now = volumes_by_id(st);
  // The path of volume `id` in the new object.
  auto where = [&](std::int64_t id) {
    if (id < 0) return path;
    const auto& arr = member(st, "volumes")->get_array();
    for (std::size_t i = 0; i < arr.size(); ++i)
      if (member_int(&arr[i], "id") == id) return path.child("volumes").index(i);
    return path;
  };
  for (const auto& [id, v] : now) {
    auto was = before.find(id);
    if (was == before.end()) continue;  // a volume added
    const FieldPath p = where(id);
    const std::string_view vtype = member_string(v, "type"), wtype = member_string(was->second, "type");
    if (id >= 0 && vtype != wtype) {
      out.push_back(validation::field_invalid(p.child("type"), jstr(vtype),
                                              "field is immutable: a volume keeps its type (was " + std::string(wtype) + ")"));
      continue;
    }
    if (vtype != "persistent-claim") continue;
    if (member_string(v, "class") != member_string(was->second, "class"))
      out.push_back(validation::field_invalid(p.child("class"), jstr(member_string(v, "class")),
                                              "field is immutable: the claims' StorageClass cannot change"));
    auto size = meta::quantity_value(member_string(v, "size"));
    auto old_size = meta::quantity_value(member_string(was->second, "size"));
    if (size && old_size && *size < *old_size)
      out.push_back(validation::field_invalid(p.child("size"), jstr(member_string(v, "size")),
                                              "shrinking persistent volumes is not supported (was " +
                                                  std::string(member_string(was->second, "size")) + ")"));
  }
  // Kafka cannot move its metadata log: the volume holding it stays.
  const auto old_metadata = kraft_metadata_volume(old);
  const auto new_metadata = kraft_metadata_volume(st);
  if (type == "jbod" && old_metadata && new_metadata && old_metadata != new_metadata)
    out.push_back(validation::field_forbidden(path.child("volumes"), "the KRaft metadata log cannot move: it stays on the volume of id " +
                                                                         std::to_string(*old_metadata) + " (now " +
                                                                         std::to_string(*new_metadata) + ")"));
}

}  // namespace capstan::apis::kafka::v1
