// Who makes a request: user.Info of k8s.io/apiserver (name, uid, groups, extra).
#pragma once

#include "runtime/json/json.h"

#include <map>
#include <string>
#include <vector>

namespace capstan::apiserver::rest {

struct User {
  std::string name;
  std::string uid;
  std::vector<std::string> groups;
  std::map<std::string, std::vector<std::string>> extra;  // e.g. from Impersonate-Extra-* headers
  // The identity of the server's own control loops: system:masters, like kube's loopback client.
  static User system() { return {"system:apiserver", "", {"system:masters", "system:authenticated"}, {}}; }
  bool in_group(std::string_view g) const;
};

// The authentication.k8s.io UserInfo JSON (username, uid, groups, extra; empty members omitted).
json::Object user_info_json(const User& u);

}  // namespace capstan::apiserver::rest
