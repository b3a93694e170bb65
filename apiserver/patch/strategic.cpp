#include "apiserver/patch/strategic.h"

#include "runtime/gofmt/gofmt.h"

#include <algorithm>
#include <climits>
#include <optional>
#include <utility>
#include <vector>

namespace capstan::apiserver::patch {

namespace {

using json::Array;
using json::Object;
using json::Value;
using Kind = PatchError::Kind;

constexpr std::string_view kDirective = "$patch";
constexpr std::string_view kRetainKeys = "$retainKeys";
constexpr std::string_view kDeletePrefix = "$deleteFromPrimitiveList";
constexpr std::string_view kOrderPrefix = "$setElementOrder";

// k8s.io/apimachinery/pkg/util/mergepatch errors, with the status kube-apiserver gives each.
[[noreturn]] void bad_json_doc() { throw PatchError(Kind::BadRequest, "invalid JSON document"); }
[[noreturn]] void no_list_of_lists() { throw PatchError(Kind::Invalid, "lists of lists are not supported"); }
[[noreturn]] void bad_primitive_list() { throw PatchError(Kind::BadRequest, "invalid patch format of primitive list"); }
[[noreturn]] void bad_retain_keys() { throw PatchError(Kind::BadRequest, "invalid patch format of retainKeys"); }
[[noreturn]] void bad_set_element_order() { throw PatchError(Kind::BadRequest, "invalid patch format of setElementOrder list"); }
[[noreturn]] void internal(std::string message) { throw PatchError(Kind::Internal, std::move(message)); }
[[noreturn]] void bad_arg_type(std::string_view expected, const Value& actual) {
  internal("expected a " + std::string(expected) + ", but received a " + gofmt::type_name(actual));
}
[[noreturn]] void no_merge_key(const Value& m, const std::string& key) {
  internal("map: " + gofmt::format_v(m) + " does not contain declared merge key: " + key);
}
[[noreturn]] void bad_patch_type(const Value& t, const Value& m) {
  internal("unknown patch type: " + gofmt::format_v(t) + " in map: " + gofmt::format_v(m));
}

constexpr std::string_view kSlice = "[]interface {}";
constexpr std::string_view kMap = "map[string]interface {}";

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// The key of a "$prefix/key" directive (strings.SplitN(s, "/", 2)).
std::optional<std::string> extract_key(std::string_view s, std::string_view prefix) {
  auto slash = s.find('/');
  if (slash == std::string_view::npos || s.substr(0, slash) != prefix) return std::nullopt;
  return std::string(s.substr(slash + 1));
}

// Go's == on two decoded JSON values (numbers are all float64 there).
bool go_equal(const Value& a, const Value& b) { return json::deep_equal(a, b); }

// reflect.TypeOf for decoded values: numbers share one type.
int go_type(const Value& v) {
  switch (v.kind()) {
    case boost::json::kind::object: return 1;
    case boost::json::kind::array: return 2;
    case boost::json::kind::string: return 3;
    case boost::json::kind::bool_: return 4;
    case boost::json::kind::null: return 5;
    default: return 6;
  }
}

const Value* key_of(const Value& item, const std::string& merge_key) {
  const auto* obj = item.if_object();
  return obj ? obj->if_contains(merge_key) : nullptr;
}

bool has_directive(const Value& item) {
  const auto* obj = item.if_object();
  return obj && obj->contains(kDirective);
}

// Null members of objects anywhere in `v` are dropped (what decoding into Go types does).
Value discard_nulls(const Value& v) {
  if (const auto* obj = v.if_object()) {
    Object out;
    for (const auto& kv : *obj) {
      if (!kv.value().is_null()) out.emplace(kv.key(), discard_nulls(kv.value()));
    }
    return out;
  }
  if (const auto* arr = v.if_array()) {
    Array out;
    for (const auto& e : *arr) out.push_back(discard_nulls(e));
    return out;
  }
  return v;
}

FieldPath child(const FieldPath& path, std::string_view step) {
  FieldPath out = path;
  out.emplace_back(step);
  return out;
}

// Position of `item` in `list`, comparing merge keys for maps and values otherwise; -1 if absent.
long index_in(const Array& list, const Value& item, const std::string& merge_key, bool maps) {
  static const Value null_value;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (maps) {
      const Value* a = key_of(item, merge_key);
      const Value* b = key_of(list[i], merge_key);
      if (go_equal(a ? *a : null_value, b ? *b : null_value)) return static_cast<long>(i);
    } else if (go_equal(item, list[i])) {
      return static_cast<long>(i);
    }
  }
  return -1;
}

void validate_merge_keys(const Array& list, const std::string& merge_key) {
  for (const auto& item : list) {
    if (!item.is_object()) bad_arg_type(kMap, item);
    if (!item.get_object().contains(merge_key)) no_merge_key(item, merge_key);
  }
}

// Stable order of `items` by their position in `order`; items `order` lacks go last.
Array sort_by(const Array& items, const Array& order, const std::string& merge_key, bool maps) {
  std::vector<std::pair<long, const Value*>> keyed;
  keyed.reserve(items.size());
  for (const auto& item : items) {
    long i = index_in(order, item, merge_key, maps);
    keyed.emplace_back(i < 0 ? LONG_MAX : i, &item);
  }
  std::stable_sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  Array out;
  out.reserve(items.size());
  for (const auto& k : keyed) out.push_back(*k.second);
  return out;
}

// Interleaves server-only items (`left`) into the patch items (`right`): a server-only item goes first
// only when both are in the live order and it comes earlier there (mergeSortedSlice).
Array merge_sorted(const Array& left, const Array& right, const Array& server_order, const std::string& merge_key, bool maps) {
  Array out;
  out.reserve(left.size() + right.size());
  std::size_t i = 0, j = 0;
  while (i < left.size() && j < right.size()) {
    long li = index_in(server_order, left[i], merge_key, maps);
    long ri = index_in(server_order, right[j], merge_key, maps);
    if (li >= 0 && ri >= 0 && li < ri) out.push_back(left[i++]);
    else out.push_back(right[j++]);
  }
  while (i < left.size()) out.push_back(left[i++]);
  while (j < right.size()) out.push_back(right[j++]);
  return out;
}

// Items carrying "$patch: delete" go to the end of a list being ordered (extractToDeleteItems).
Array deletes_last(const Array& items) {
  Array keep, drop;
  for (const auto& item : items) {
    const Value* d = item.is_object() ? item.get_object().if_contains(kDirective) : nullptr;
    if (d && d->is_string() && d->get_string() == "delete") drop.push_back(item);
    else keep.push_back(item);
  }
  for (auto& d : drop) keep.push_back(std::move(d));
  return keep;
}

Array normalize_element_order(const Array& patch_items, const Array& server_only, const Array& patch_order,
                              const Array& server_order, const std::string& merge_key, bool maps) {
  if (maps) {
    validate_merge_keys(patch_items, merge_key);
    validate_merge_keys(patch_order, merge_key);
    validate_merge_keys(server_only, merge_key);
    validate_merge_keys(server_order, merge_key);
  }
  Array patch_sorted = sort_by(maps ? deletes_last(patch_items) : patch_items, patch_order, merge_key, maps);
  Array server_sorted = sort_by(maps ? deletes_last(server_only) : server_only, server_order, merge_key, maps);
  return merge_sorted(server_sorted, patch_sorted, server_order, merge_key, maps);
}

void partition(const Array& merged, const Array& by, const std::string& merge_key, Array& in, Array& out) {
  for (const auto& item : merged) {
    bool found;
    if (merge_key.empty()) {
      found = index_in(by, item, merge_key, false) >= 0;
    } else {
      if (!item.is_object()) bad_arg_type(kMap, item);
      const Value* k = key_of(item, merge_key);
      if (!k) no_merge_key(item, merge_key);
      found = false;
      for (std::size_t i = 0; i < by.size(); ++i) {
        if (!by[i].is_object()) internal("value for key " + std::to_string(i) + " is not a map.");
        const Value* b = key_of(by[i], merge_key);
        if (b && go_equal(*b, *k)) {
          found = true;
          break;
        }
      }
    }
    (found ? in : out).push_back(item);
  }
}

// The common element type of the lists (sliceElementType): 0 when all are empty.
int element_type(const Array& a, const Array& b) {
  int type = 0;
  for (const Array* list : {&a, &b}) {
    for (const auto& v : *list) {
      int t = go_type(v);
      if (t == 2) no_list_of_lists();
      if (type == 0) type = t;
      else if (type != t) internal("list element types are not identical: " + gofmt::format_v(Value(Array{Value(a), Value(b)})));
    }
  }
  return type;
}

Array dedup_scalars(const Array& items) {
  Array out;
  for (const auto& v : items) {
    if (index_in(out, v, {}, false) < 0) out.push_back(v);
  }
  return out;
}

Array delete_from(const Array& current, const Array& to_delete) {
  Array out;
  for (const auto& v : current) {
    if (index_in(to_delete, v, {}, false) < 0) out.push_back(v);
  }
  return out;
}

class Merger {
 public:
  explicit Merger(const ListTypes& types) : types_(types) {}

  Value merge_map(Object original, Object patch, const FieldPath& path) {
    if (const Value* d = patch.if_contains(kDirective)) {
      if (d->is_string() && d->get_string() == "replace") {
        patch.erase(kDirective);
        return merge_map(Object{}, std::move(patch), path);
      }
      if (d->is_string() && d->get_string() == "delete") return Object{};
      bad_patch_type(*d, Value(patch));
    }
    apply_retain_keys(original, patch);
    merge_set_element_order(original, patch, path);

    for (const auto& kv : patch) {
      std::string_view k(kv.key().data(), kv.key().size());
      try {
        merge_member(original, k, kv.value(), path);
      } catch (PatchError& e) {
        if (e.path.empty()) e.path = describe(child(path, k));
        throw;
      }
    }
    return original;
  }

 private:
  void merge_member(Object& original, std::string_view k, const Value& pv, const FieldPath& path) {
    {
      if (starts_with(k, kDeletePrefix)) {
        auto name = extract_key(k, kDeletePrefix);
        if (!name) bad_primitive_list();
        if (auto it = original.find(*name); it != original.end()) {
          it->value() = merge_slice_handler(it->value(), pv, child(path, *name), /*is_delete_list=*/true);
        }
        return;
      }
      if (pv.is_null()) {
        original.erase(k);
        return;
      }
      auto it = original.find(k);
      if (it == original.end()) {
        original.emplace(k, normalize(pv, child(path, k)));
        return;
      }
      Value& ov = it->value();
      if (go_type(ov) != go_type(pv)) {
        ov = normalize(pv, child(path, k));
      } else if (ov.is_object()) {
        ov = merge_map(std::move(ov.get_object()), pv.get_object(), child(path, k));
      } else if (ov.is_array()) {
        ov = merge_slice_handler(ov, pv, child(path, k), false);
      } else {
        ov = pv;
      }
    }
  }

  // A patch value placed where the original has nothing: directives applied, null members dropped.
  Value normalize(const Value& v, const FieldPath& path) {
    if (const auto* obj = v.if_object()) return merge_map(Object{}, *obj, path);
    if (const auto* arr = v.if_array()) {
      ListType lt = types_.at(path);
      bool mergeable = lt.smp == SmpStrategy::Merge;
      if (mergeable && !lt.smp_merge_key.empty()) {
        for (const auto& e : *arr) mergeable = mergeable && key_of(e, lt.smp_merge_key) != nullptr;
      }
      if (mergeable) return merge_slice(Array{}, *arr, lt.smp_merge_key, path, false);
      return discard_nulls(v);
    }
    return v;
  }

  void apply_retain_keys(Object& original, Object& patch) {
    auto it = patch.find(kRetainKeys);
    if (it == patch.end()) return;
    Value keys = it->value();
    patch.erase(it);
    if (!keys.is_array()) bad_retain_keys();
    auto listed = [&](std::string_view k) {
      for (const auto& key : keys.get_array()) {
        if (key.is_string() && key.get_string() == k) return true;
      }
      return false;
    };
    for (const auto& kv : patch) {
      std::string_view k(kv.key().data(), kv.key().size());
      if (kv.value().is_null() || starts_with(k, kDeletePrefix) || starts_with(k, kOrderPrefix)) continue;
      if (!listed(k)) bad_retain_keys();
    }
    std::vector<std::string> drop;
    for (const auto& kv : original) {
      if (!listed(kv.key())) drop.emplace_back(kv.key());
    }
    for (const auto& k : drop) original.erase(k);
  }

  // Order consistency between a patch list and its $setElementOrder list.
  void validate_with_order(const Array& patch_list, const Array& order, const std::string& merge_key) {
    if (order.empty() || patch_list.empty()) return;
    Array non_delete;
    if (!merge_key.empty()) {
      for (const auto& v : patch_list) {
        if (!v.is_object()) bad_arg_type(kMap, v);
      }
      for (const auto& v : patch_list) {
        const Value* d = v.get_object().if_contains(kDirective);
        if (!(d && d->is_string() && d->get_string() == "delete")) non_delete.push_back(v);
      }
    } else {
      non_delete = patch_list;
    }
    std::size_t pi = 0, oi = 0;
    while (pi < non_delete.size() && oi < order.size()) {
      if (has_directive(non_delete[pi])) {
        ++pi;
        continue;
      }
      bool equal;
      if (merge_key.empty()) {
        equal = go_equal(non_delete[pi], order[oi]);
      } else {
        if (!order[oi].is_object()) bad_arg_type(kMap, order[oi]);
        const Value* a = key_of(non_delete[pi], merge_key);
        const Value* b = key_of(order[oi], merge_key);
        if (!a) no_merge_key(non_delete[pi], merge_key);
        if (!b) no_merge_key(order[oi], merge_key);
        equal = go_equal(*a, *b);
      }
      if (equal) ++pi;
      ++oi;
    }
    if (pi < non_delete.size() && oi >= order.size()) {
      internal("The order in patch list:\n" + gofmt::format_v(Value(patch_list)) + "\n doesn't match " + std::string(kOrderPrefix) +
               " list:\n" + gofmt::format_v(Value(order)) + "\n");
    }
  }

  // $setElementOrder/<list>: merges that list now and enforces the order (mergePatchIntoOriginal).
  void merge_set_element_order(Object& original, Object& patch, const FieldPath& path) {
    std::vector<std::string> directives;
    for (const auto& kv : patch) {
      if (starts_with(kv.key(), kOrderPrefix)) directives.emplace_back(kv.key());
    }
    for (const auto& key : directives) {
      Value order_v = patch.at(key);
      patch.erase(key);
      if (!order_v.is_array()) bad_arg_type(kSlice, order_v);
      const Array& order = order_v.get_array();
      auto name = extract_key(key, kOrderPrefix);
      if (!name) bad_set_element_order();

      const Value* orig = original.if_contains(*name);
      const Value* pl = patch.if_contains(*name);
      if (orig && !orig->is_array()) bad_arg_type(kSlice, *orig);
      if (pl && !pl->is_array()) bad_arg_type(kSlice, *pl);
      FieldPath list_path = child(path, *name);
      ListType lt = types_.at(list_path);
      const std::string& merge_key = lt.smp_merge_key;
      static const Array kEmpty;
      const Array& orig_list = orig ? orig->get_array() : kEmpty;
      const Array& patch_list = pl ? pl->get_array() : kEmpty;
      validate_with_order(patch_list, order, merge_key);

      Array merged;
      if (orig && !pl) merged = orig_list;
      else if (!orig && pl) merged = normalize(*pl, list_path).get_array();
      else if (orig && pl) merged = merge_slice_handler(*orig, *pl, list_path, false);
      else continue;

      Array patch_items, server_only;
      partition(merged, order, merge_key, patch_items, server_only);
      bool maps = element_type(orig_list, patch_list) == 1;
      original[*name] = normalize_element_order(patch_items, server_only, order, orig_list, merge_key, maps);
      patch.erase(*name);
    }
  }

  Array merge_slice_handler(const Value& original, const Value& patch, const FieldPath& path, bool is_delete_list) {
    if (!original.is_array()) bad_arg_type(kSlice, original);
    if (!patch.is_array()) bad_arg_type(kSlice, patch);
    ListType lt = types_.at(path);
    if (lt.smp == SmpStrategy::Merge) {
      return merge_slice(original.get_array(), patch.get_array(), lt.smp_merge_key, path, is_delete_list);
    }
    if (is_delete_list) return delete_from(original.get_array(), patch.get_array());
    return discard_nulls(patch).get_array();
  }

  Array merge_slice(Array original, const Array& patch, const std::string& merge_key, const FieldPath& path, bool is_delete_list) {
    if (original.empty() && patch.empty()) return original;
    int type = element_type(original, patch);
    if (type != 1) {
      if (is_delete_list) return delete_from(original, patch);
      Array both = original;
      for (const auto& v : patch) both.push_back(v);
      Array merged = dedup_scalars(both);
      Array patch_items, server_only;
      partition(merged, patch, {}, patch_items, server_only);
      return normalize_element_order(patch_items, server_only, patch, original, {}, false);
    }
    if (merge_key.empty()) internal("cannot merge lists without merge key for " + describe(path));

    // Elements carrying a directive (mergeSliceWithSpecialElements).
    Array plain;
    bool replace = false;
    for (const auto& v : patch) {
      const Object& m = v.get_object();
      const Value* d = m.if_contains(kDirective);
      if (!d) {
        plain.push_back(v);
        continue;
      }
      if (d->is_string() && d->get_string() == "delete") {
        const Value* key = m.if_contains(merge_key);
        if (!key) no_merge_key(v, merge_key);
        Array kept;
        for (auto& e : original) {
          const Value* ek = key_of(e, merge_key);
          if (!(ek && go_equal(*ek, *key))) kept.push_back(std::move(e));
        }
        original = std::move(kept);
      } else if (d->is_string() && d->get_string() == "replace") {
        replace = true;
      } else if (d->is_string() && d->get_string() == "merge") {
        internal("merging lists cannot yet be specified in the patch");
      } else {
        bad_patch_type(*d, v);
      }
    }
    FieldPath element = child(path, kListElement);
    if (replace) {
      validate_merge_keys(plain, merge_key);
      Array out;
      for (const auto& v : plain) out.push_back(normalize(v, element));
      return out;
    }

    const Array server_order = original;
    for (const auto& v : plain) {
      const Value* key = key_of(v, merge_key);
      if (!key) no_merge_key(v, merge_key);
      bool found = false;
      for (std::size_t i = 0; i < original.size(); ++i) {
        if (!original[i].is_object()) internal("value for key " + std::to_string(i) + " is not a map.");
        const Value* ek = key_of(original[i], merge_key);
        if (ek && go_equal(*ek, *key)) {
          original[i] = merge_map(original[i].get_object(), v.get_object(), element);
          found = true;
          break;
        }
      }
      if (!found) original.push_back(normalize(v, element));
    }
    Array patch_items, server_only;
    partition(original, plain, merge_key, patch_items, server_only);
    return normalize_element_order(patch_items, server_only, plain, server_order, merge_key, true);
  }

  const ListTypes& types_;
};

}  // namespace

json::Value apply_strategic_merge_patch(const json::Value& original, const json::Value& patch, const ListTypes& types) {
  if (!original.is_object()) bad_json_doc();
  if (patch.is_null()) return original;
  if (!patch.is_object()) bad_json_doc();
  Merger merger(types);
  return merger.merge_map(original.get_object(), patch.get_object(), {});
}

}  // namespace capstan::apiserver::patch
