#include "runtime/client/access_review.h"

#include "runtime/client/client.h"

namespace capstan::client {

bool subject_access_allowed(Client& c, const json::Value& user, const AccessAttributes& attrs) {
  json::Object resource{{"verb", attrs.verb}, {"group", attrs.group}, {"resource", attrs.resource}};
  if (!attrs.name.empty()) resource["name"] = attrs.name;
  if (!attrs.ns.empty()) resource["namespace"] = attrs.ns;
  json::Object spec{{"user", json::get_string(user, {"username"})}, {"resourceAttributes", std::move(resource)}};
  if (auto uid = json::get_string(user, {"uid"}); !uid.empty()) spec["uid"] = uid;
  if (const auto* g = json::find(user, {"groups"}); g && g->is_array()) spec["groups"] = *g;
  if (const auto* e = json::find(user, {"extra"}); e && e->is_object()) spec["extra"] = *e;
  json::Value review = c.create({"authorization.k8s.io", "v1", "subjectaccessreviews"}, "",
                                json::Object{{"apiVersion", "authorization.k8s.io/v1"}, {"kind", "SubjectAccessReview"}, {"spec", std::move(spec)}});
  return json::get_bool(review, {"status", "allowed"});
}

}  // namespace capstan::client
