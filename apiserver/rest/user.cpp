#include "apiserver/rest/user.h"

#include <algorithm>

namespace capstan::apiserver::rest {

bool User::in_group(std::string_view g) const { return std::find(groups.begin(), groups.end(), g) != groups.end(); }

json::Object user_info_json(const User& u) {
  json::Object o;
  if (!u.name.empty()) o["username"] = u.name;
  if (!u.uid.empty()) o["uid"] = u.uid;
  if (!u.groups.empty()) {
    json::Array g;
    for (const auto& s : u.groups) g.emplace_back(s);
    o["groups"] = std::move(g);
  }
  if (!u.extra.empty()) {
    json::Object extra;
    for (const auto& [k, vs] : u.extra) {
      json::Array a;
      for (const auto& v : vs) a.emplace_back(v);
      extra[k] = std::move(a);
    }
    o["extra"] = std::move(extra);
  }
  return o;
}

}  // namespace capstan::apiserver::rest
