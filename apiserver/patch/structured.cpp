#include "apiserver/patch/structured.h"

#include "runtime/json/patch.h"

#include <unordered_set>
#include <utility>

namespace capstan::apiserver::patch {

namespace {

using json::Array;
using json::Object;
using json::Value;

// Keeps a FieldPath (schema path) and a Path (field path) in step while walking.
struct Cursor {
  FieldPath schema;
  Path path;

  void push(const PathElement& pe) {
    schema.emplace_back(pe.kind == PathElement::Kind::Field ? pe.name : std::string(kListElement));
    path.push_back(pe);
  }
  void pop() {
    schema.pop_back();
    path.pop_back();
  }
};

struct ItemElements {
  std::vector<PathElement> elements;  // one per item, in order
  bool ok = true;                     // false when some item has no element
  bool duplicates = false;
};

ItemElements elements_of(const Array& items, const ListType& type) {
  ItemElements out;
  out.elements.reserve(items.size());
  for (const auto& item : items) {
    auto pe = list_item_element(item, type);
    if (!pe) {
      out.ok = false;
      return out;
    }
    for (const auto& seen : out.elements) {
      if (seen == *pe) {
        out.duplicates = true;
        break;
      }
    }
    out.elements.push_back(std::move(*pe));
  }
  return out;
}

[[noreturn]] void invalid_config(const Cursor& at, std::string message) {
  std::string where = to_string(at.path);
  throw json::PatchError(json::PatchError::Kind::BadRequest, (where.empty() ? std::string(".") : where) + ": " + message);
}

// ---- ToFieldSet -----------------------------------------------------------------------------------

class FieldSetWalker {
 public:
  FieldSetWalker(const ListTypes& types, bool strict) : types_(types), strict_(strict) {}

  void walk(const Value& v, Cursor& at, FieldSet& out) {
    if (const auto* obj = v.if_object()) {
      MapKind mk = types_.map_at(at.schema);
      if (mk == MapKind::Atomic && !at.path.empty()) {
        out.insert(at.path);
        return;
      }
      for (const auto& kv : *obj) {
        at.push(PathElement::field(std::string(kv.key())));
        walk(kv.value(), at, out);
        const Value& val = kv.value();
        if (val.is_null() || (val.is_object() && val.get_object().empty()) || mk == MapKind::Map) out.insert(at.path);
        at.pop();
      }
      return;
    }
    if (const auto* arr = v.if_array()) {
      ListType lt = types_.at(at.schema);
      if (lt.kind == ListKind::Atomic) {
        out.insert(at.path);
        return;
      }
      ItemElements items = elements_of(*arr, lt);
      if (!items.ok || items.duplicates) {
        if (strict_) {
          if (!items.ok) {
            for (std::size_t i = 0; i < arr->size(); ++i) {
              if (!list_item_element((*arr)[i], lt)) invalid_config(at, "element " + std::to_string(i) + ": " + why_no_element((*arr)[i], lt));
            }
          }
          for (std::size_t i = 0; i < items.elements.size(); ++i) {
            for (std::size_t j = 0; j < i; ++j) {
              if (items.elements[i] == items.elements[j]) invalid_config(at, "duplicate entries for key " + items.elements[i].to_string());
            }
          }
        }
        out.insert(at.path);
        return;
      }
      for (std::size_t i = 0; i < arr->size(); ++i) {
        at.push(items.elements[i]);
        walk((*arr)[i], at, out);
        out.insert(at.path);
        at.pop();
      }
      return;
    }
    if (!at.path.empty()) out.insert(at.path);
  }

 private:
  static std::string why_no_element(const Value& item, const ListType& lt) {
    if (lt.kind == ListKind::Set) return "expected a scalar set element, got " + json::serialize(item);
    if (!item.is_object()) return "expected a map, got " + json::serialize(item);
    for (const auto& k : lt.keys) {
      if (!item.get_object().contains(k) && !lt.key_defaults.contains(k)) {
        return "associative list with keys has an element that omits key field \"" + k + "\" (and doesn't have default value)";
      }
    }
    return "invalid key";
  }

  const ListTypes& types_;
  bool strict_;
};

// ---- Compare --------------------------------------------------------------------------------------

class Comparer {
 public:
  Comparer(const ListTypes& types, Comparison& out) : types_(types), out_(out) {}

  // Either side may be absent (nullptr), not both.
  void compare(const Value* lhs, const Value* rhs, Cursor& at) {
    bool lmap = !lhs || lhs->is_object() || lhs->is_null();
    bool rmap = !rhs || rhs->is_object() || rhs->is_null();
    bool lobj = lhs && lhs->is_object();
    bool robj = rhs && rhs->is_object();
    bool larr = lhs && lhs->is_array();
    bool rarr = rhs && rhs->is_array();
    bool lnull_or_absent = !lhs || lhs->is_null();
    bool rnull_or_absent = !rhs || rhs->is_null();

    if ((lobj || robj) && lmap && rmap) {
      const Object* lm = lobj ? &lhs->get_object() : nullptr;
      const Object* rm = robj ? &rhs->get_object() : nullptr;
      bool empty = (!lm || lm->empty()) && (!rm || rm->empty());
      if (empty || types_.map_at(at.schema) == MapKind::Atomic) {
        leaf(lhs, rhs, at);
        return;
      }
      if (lm) {
        for (const auto& kv : *lm) {
          at.push(PathElement::field(std::string(kv.key())));
          compare(&kv.value(), rm ? rm->if_contains(kv.key()) : nullptr, at);
          at.pop();
        }
      }
      if (rm) {
        for (const auto& kv : *rm) {
          if (lm && lm->contains(kv.key())) continue;
          at.push(PathElement::field(std::string(kv.key())));
          compare(nullptr, &kv.value(), at);
          at.pop();
        }
      }
      container_presence(lhs, rhs, at);
      return;
    }
    if ((larr || rarr) && (larr || lnull_or_absent) && (rarr || rnull_or_absent)) {
      static const Array kEmpty;
      const Array& la = larr ? lhs->get_array() : kEmpty;
      const Array& ra = rarr ? rhs->get_array() : kEmpty;
      ListType lt = types_.at(at.schema);
      if ((la.empty() && ra.empty()) || lt.kind == ListKind::Atomic) {
        leaf(lhs, rhs, at);
        return;
      }
      ItemElements le = elements_of(la, lt);
      ItemElements re = elements_of(ra, lt);
      if (!le.ok || !re.ok) {
        leaf(lhs, rhs, at);
        return;
      }
      auto find = [](const ItemElements& e, std::size_t upto, const PathElement& pe) -> long {
        for (std::size_t i = 0; i < upto; ++i) {
          if (e.elements[i] == pe) return static_cast<long>(i);
        }
        return -1;
      };
      for (std::size_t i = 0; i < ra.size(); ++i) {
        if (find(re, i, re.elements[i]) >= 0) continue;  // repeated occurrence
        long li = find(le, la.size(), re.elements[i]);
        at.push(re.elements[i]);
        compare(li >= 0 ? &la[static_cast<std::size_t>(li)] : nullptr, &ra[i], at);
        at.pop();
      }
      for (std::size_t i = 0; i < la.size(); ++i) {
        if (find(le, i, le.elements[i]) >= 0) continue;
        if (find(re, ra.size(), le.elements[i]) >= 0) continue;
        at.push(le.elements[i]);
        compare(&la[i], nullptr, at);
        at.pop();
      }
      container_presence(lhs, rhs, at);
      return;
    }
    leaf(lhs, rhs, at);
  }

 private:
  void leaf(const Value* lhs, const Value* rhs, Cursor& at) {
    if (at.path.empty()) return;
    if (!lhs) out_.added.insert(at.path);
    else if (!rhs) out_.removed.insert(at.path);
    else if (!json::deep_equal(*lhs, *rhs)) out_.modified.insert(at.path);
  }

  void container_presence(const Value* lhs, const Value* rhs, Cursor& at) {
    if (at.path.empty()) return;
    if (!lhs) out_.added.insert(at.path);
    else if (!rhs) out_.removed.insert(at.path);
  }

  const ListTypes& types_;
  Comparison& out_;
};

// ---- Merge ----------------------------------------------------------------------------------------

class Merger {
 public:
  explicit Merger(const ListTypes& types) : types_(types) {}

  Value merge(const Value* lhs, const Value* rhs, FieldPath& schema) {
    if (!rhs) return *lhs;
    if (!lhs) return *rhs;
    if (lhs->is_object() && rhs->is_object()) {
      const Object& lm = lhs->get_object();
      const Object& rm = rhs->get_object();
      if ((lm.empty() && rm.empty()) || types_.map_at(schema) == MapKind::Atomic) return *rhs;
      Object out = lm;
      for (const auto& kv : rm) {
        schema.emplace_back(kv.key());
        auto it = out.find(kv.key());
        if (it == out.end()) out.emplace(kv.key(), kv.value());
        else it->value() = merge(&it->value(), &kv.value(), schema);
        schema.pop_back();
      }
      return out;
    }
    if (lhs->is_array() && rhs->is_array()) {
      ListType lt = types_.at(schema);
      if (lt.kind == ListKind::Atomic) return *rhs;
      return merge_lists(lhs->get_array(), rhs->get_array(), lt, schema);
    }
    return *rhs;
  }

 private:
  // The configuration's items in its order, with live-only items kept where they were relative to
  // the shared ones (structured-merge-diff's mergingWalker.visitListItems).
  Value merge_lists(const Array& lhs, const Array& rhs, const ListType& lt, FieldPath& schema) {
    ItemElements le = elements_of(lhs, lt);
    ItemElements re = elements_of(rhs, lt);
    if (!le.ok || !re.ok) return rhs;
    auto index_of = [](const ItemElements& e, const PathElement& pe) -> long {
      for (std::size_t i = 0; i < e.elements.size(); ++i) {
        if (e.elements[i] == pe) return static_cast<long>(i);
      }
      return -1;
    };
    std::vector<const PathElement*> shared;
    for (const auto& pe : re.elements) {
      if (index_of(le, pe) >= 0) shared.push_back(&pe);
    }
    std::size_t next_shared = 0;
    auto advance_shared = [&] {
      if (next_shared < shared.size()) ++next_shared;
    };
    auto current_shared = [&]() -> const PathElement* { return next_shared < shared.size() ? shared[next_shared] : nullptr; };

    std::vector<PathElement> merged_rhs;
    auto merged_already = [&](const PathElement& pe) {
      for (const auto& m : merged_rhs) {
        if (m == pe) return true;
      }
      return false;
    };
    schema.emplace_back(kListElement);
    Array out;
    std::size_t li = 0, ri = 0;
    while (li < lhs.size() || ri < rhs.size()) {
      if (li < lhs.size() && ri < rhs.size()) {
        const PathElement& pe = le.elements[li];
        if (pe == re.elements[ri]) {
          merged_rhs.push_back(pe);
          out.push_back(merge_item(&lhs[li], &rhs[ri], lt, schema));
          ++li;
          ++ri;
          advance_shared();
          continue;
        }
        const PathElement* ns = current_shared();
        if (index_of(re, pe) >= 0 && ns && !(*ns == pe)) {
          ++li;  // a shared item, placed later when the configuration reaches it
          continue;
        }
      }
      if (li < lhs.size()) {
        const PathElement& pe = le.elements[li];
        if (index_of(re, pe) < 0) {
          out.push_back(lhs[li]);
          ++li;
          continue;
        }
        if (merged_already(pe)) {
          ++li;
          continue;
        }
      }
      if (ri < rhs.size()) {
        const PathElement& pe = re.elements[ri];
        if (!merged_already(pe)) {
          merged_rhs.push_back(pe);
          long l = index_of(le, pe);
          out.push_back(merge_item(l >= 0 ? &lhs[static_cast<std::size_t>(l)] : nullptr, &rhs[ri], lt, schema));
        }
        ++ri;
        const PathElement* ns = current_shared();
        if (ns && *ns == pe) advance_shared();
      }
    }
    schema.pop_back();
    return out;
  }

  Value merge_item(const Value* lhs, const Value* rhs, const ListType& lt, FieldPath& schema) {
    if (lt.kind == ListKind::Set) return *rhs;
    return merge(lhs, rhs, schema);
  }

  const ListTypes& types_;
};

// ---- RemoveItems ----------------------------------------------------------------------------------

class Remover {
 public:
  explicit Remover(const ListTypes& types) : types_(types) {}

  Value remove(const Value& v, const FieldSet& set, FieldPath& schema) {
    if (const auto* obj = v.if_object()) {
      Object out;
      for (const auto& kv : *obj) {
        PathElement pe = PathElement::field(std::string(kv.key()));
        if (set.members().count(pe)) continue;
        if (const FieldSet* sub = set.child(pe)) {
          schema.emplace_back(kv.key());
          out.emplace(kv.key(), remove(kv.value(), *sub, schema));
          schema.pop_back();
        } else {
          out.emplace(kv.key(), kv.value());
        }
      }
      return out;
    }
    if (const auto* arr = v.if_array()) {
      ListType lt = types_.at(schema);
      Array out;
      for (std::size_t i = 0; i < arr->size(); ++i) {
        std::optional<PathElement> pe;
        if (lt.kind != ListKind::Atomic) pe = list_item_element((*arr)[i], lt);
        if (!pe) pe = PathElement::make_index(static_cast<long long>(i));
        if (set.members().count(*pe)) continue;
        if (const FieldSet* sub = set.child(*pe)) {
          schema.emplace_back(kListElement);
          out.push_back(remove((*arr)[i], *sub, schema));
          schema.pop_back();
        } else {
          out.push_back((*arr)[i]);
        }
      }
      return out;
    }
    return v;
  }

 private:
  const ListTypes& types_;
};

FieldSet ensure_named(const FieldSet& set, const ListTypes& types, FieldPath& schema) {
  FieldSet out;
  out.members() = set.members();
  bool is_struct = types.map_at(schema) == MapKind::Struct;
  for (const auto& [pe, sub] : set.children()) {
    schema.emplace_back(pe.kind == PathElement::Kind::Field ? pe.name : std::string(kListElement));
    out.children().emplace(pe, ensure_named(sub, types, schema));
    schema.pop_back();
    if (is_struct && pe.kind == PathElement::Kind::Field) out.members().insert(pe);
  }
  return out;
}

}  // namespace

std::optional<PathElement> list_item_element(const Value& item, const ListType& type) {
  switch (type.kind) {
    case ListKind::Set:
      if (item.is_object() || item.is_array()) return std::nullopt;
      return PathElement::make_value(item);
    case ListKind::Map: {
      const auto* obj = item.if_object();
      if (!obj || type.keys.empty()) return std::nullopt;
      std::vector<std::pair<std::string, Value>> fields;
      for (const auto& k : type.keys) {
        if (const Value* v = obj->if_contains(k)) fields.emplace_back(k, *v);
        else if (const Value* d = type.key_defaults.if_contains(k)) fields.emplace_back(k, *d);
        else return std::nullopt;
      }
      return PathElement::make_key(std::move(fields));
    }
    case ListKind::Atomic: return std::nullopt;
  }
  return std::nullopt;
}

FieldSet field_set_of(const Value& obj, const ListTypes& types, bool strict) {
  FieldSet out;
  Cursor at;
  FieldSetWalker(types, strict).walk(obj, at, out);
  return out;
}

Comparison compare(const Value& lhs, const Value& rhs, const ListTypes& types) {
  Comparison out;
  Cursor at;
  Comparer(types, out).compare(&lhs, &rhs, at);
  return out;
}

Value merge(const Value& lhs, const Value& rhs, const ListTypes& types) {
  FieldPath schema;
  return Merger(types).merge(&lhs, &rhs, schema);
}

Value remove_items(const Value& obj, const FieldSet& set, const ListTypes& types) {
  FieldPath schema;
  return Remover(types).remove(obj, set, schema);
}

FieldSet ensure_named_fields_are_members(const FieldSet& set, const ListTypes& types) {
  FieldPath schema;
  return ensure_named(set, types, schema);
}

}  // namespace capstan::apiserver::patch
