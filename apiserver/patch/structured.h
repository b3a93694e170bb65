// Schema-driven walks over objects, as structured-merge-diff's typed values do them: the field set an
// object (or an apply configuration) owns, the comparison of two objects, the apply merge, and the
// removal of a field set from an object. List and map semantics come from a ListTypes.
#pragma once

#include "apiserver/patch/fieldset.h"
#include "apiserver/patch/list_types.h"

#include <optional>

namespace capstan::apiserver::patch {

// The path element of a list item: the key fields of a map-list element (defaults filled in), the
// value of a set element. nullopt when the item lacks a key field without default or has the wrong
// shape for the list type.
std::optional<PathElement> list_item_element(const json::Value& item, const ListType& type);

// The fields `obj` sets (typed.ToFieldSet). With `strict` (apply configurations) a list item
// without its key fields or a duplicate key throws json::PatchError (BadRequest); otherwise such a
// list counts as atomic.
FieldSet field_set_of(const json::Value& obj, const ListTypes& types, bool strict = false);

struct Comparison {
  FieldSet added;     // present in rhs only (containers included)
  FieldSet modified;  // leaves (or atomic values) present in both with different values
  FieldSet removed;   // present in lhs only (containers included)
};

// typed.Compare of lhs (before) and rhs (after).
Comparison compare(const json::Value& lhs, const json::Value& rhs, const ListTypes& types);

// typed.Merge: the apply configuration `rhs` merged over `lhs`: granular maps and associative lists
// merge (lists keep the live order around the configuration's), everything else is replaced.
json::Value merge(const json::Value& lhs, const json::Value& rhs, const ListTypes& types);

// typed.RemoveItems: `obj` without the paths in `set` (a member removes its whole subtree).
json::Value remove_items(const json::Value& obj, const FieldSet& set, const ListTypes& types);

// fieldpath.Set.EnsureNamedFieldsAreMembers: struct fields with owned children become members too.
FieldSet ensure_named_fields_are_members(const FieldSet& set, const ListTypes& types);

}  // namespace capstan::apiserver::patch
