// Small helpers over Boost.JSON objects used by the schema code.
#pragma once

#include "runtime/json/json.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::apiserver::schema::detail {

// Removes the given keys keeping the order of the remaining members (boost::json::object::erase
// in Boost 1.81 moves the last member into the hole).
inline void erase_keys(json::Object& o, const std::vector<std::string>& keys) {
  if (keys.empty()) return;
  json::Object kept(o.storage());
  kept.reserve(o.size());
  for (auto& kv : o) {
    if (std::find(keys.begin(), keys.end(), std::string_view(kv.key())) == keys.end()) {
      kept.emplace(kv.key(), std::move(kv.value()));
    }
  }
  o = std::move(kept);
}

}  // namespace capstan::apiserver::schema::detail
