// Request attributes as kube-apiserver's RequestInfoFactory derives them.
#include "apiserver/auth/request_attributes.h"

#include <gtest/gtest.h>

namespace capstan::apiserver::auth {
namespace {

const rest::User kUser{"u", "", {}, {}};

Attributes attrs(const std::string& method, const std::string& target) {
  http::Request r;
  r.method = method;
  r.target = target;
  return request_attributes(r, kUser);
}

std::string show(const Attributes& a) {
  if (!a.resource_request) return "path " + a.verb + " " + a.path;
  return a.verb + " g=" + a.api_group + " v=" + a.api_version + " r=" + a.resource + " sub=" + a.subresource + " ns=" + a.ns + " name=" + a.name;
}

TEST(RequestAttributes, ResourceRequests) {
  EXPECT_EQ(show(attrs("GET", "/api/v1/namespaces/default/configmaps")), "list g= v=v1 r=configmaps sub= ns=default name=");
  EXPECT_EQ(show(attrs("GET", "/api/v1/namespaces/default/configmaps/x")), "get g= v=v1 r=configmaps sub= ns=default name=x");
  EXPECT_EQ(show(attrs("HEAD", "/api/v1/namespaces/default/configmaps/x")), "get g= v=v1 r=configmaps sub= ns=default name=x");
  EXPECT_EQ(show(attrs("POST", "/api/v1/namespaces/default/configmaps")), "create g= v=v1 r=configmaps sub= ns=default name=");
  EXPECT_EQ(show(attrs("PUT", "/apis/apps/v1/namespaces/ns/deployments/d/scale")), "update g=apps v=v1 r=deployments sub=scale ns=ns name=d");
  EXPECT_EQ(show(attrs("PATCH", "/apis/apps/v1/namespaces/ns/deployments/d")), "patch g=apps v=v1 r=deployments sub= ns=ns name=d");
  EXPECT_EQ(show(attrs("DELETE", "/api/v1/namespaces/ns/pods/p")), "delete g= v=v1 r=pods sub= ns=ns name=p");
  EXPECT_EQ(show(attrs("DELETE", "/api/v1/namespaces/ns/pods")), "deletecollection g= v=v1 r=pods sub= ns=ns name=");
  EXPECT_EQ(show(attrs("GET", "/api/v1/nodes")), "list g= v=v1 r=nodes sub= ns= name=");
  EXPECT_EQ(show(attrs("POST", "/api/v1/namespaces/ns/serviceaccounts/sa/token")), "create g= v=v1 r=serviceaccounts sub=token ns=ns name=sa");
  EXPECT_EQ(show(attrs("GET", "/api/v1/namespaces/ns/pods/p/log")), "get g= v=v1 r=pods sub=log ns=ns name=p");
  EXPECT_EQ(show(attrs("OPTIONS", "/api/v1/namespaces/ns/pods/p")), " g= v=v1 r=pods sub= ns=ns name=p");
}

TEST(RequestAttributes, NamespacesAreInTheirOwnNamespace) {
  EXPECT_EQ(show(attrs("GET", "/api/v1/namespaces/team")), "get g= v=v1 r=namespaces sub= ns=team name=team");
  EXPECT_EQ(show(attrs("PUT", "/api/v1/namespaces/team/finalize")), "update g= v=v1 r=namespaces sub=finalize ns=team name=team");
  EXPECT_EQ(show(attrs("PATCH", "/api/v1/namespaces/team/status")), "patch g= v=v1 r=namespaces sub=status ns=team name=team");
  EXPECT_EQ(show(attrs("GET", "/api/v1/namespaces")), "list g= v=v1 r=namespaces sub= ns= name=");
}

TEST(RequestAttributes, WatchAndFieldSelectorNames) {
  EXPECT_EQ(show(attrs("GET", "/api/v1/namespaces/ns/configmaps?watch=true")), "watch g= v=v1 r=configmaps sub= ns=ns name=");
  EXPECT_EQ(show(attrs("GET", "/api/v1/namespaces/ns/configmaps?watch=1")), "watch g= v=v1 r=configmaps sub= ns=ns name=");
  EXPECT_EQ(show(attrs("GET", "/api/v1/namespaces/ns/configmaps?watch=false")), "list g= v=v1 r=configmaps sub= ns=ns name=");
  // Not a boolean: the options do not decode and only ?watch= counts.
  EXPECT_EQ(show(attrs("GET", "/api/v1/namespaces/ns/configmaps?watch=yes&fieldSelector=metadata.name%3Dabc")),
            "watch g= v=v1 r=configmaps sub= ns=ns name=");
  EXPECT_EQ(show(attrs("GET", "/api/v1/namespaces/ns/configmaps?watch=1&fieldSelector=metadata.name%3Dabc")),
            "watch g= v=v1 r=configmaps sub= ns=ns name=abc");
  EXPECT_EQ(show(attrs("GET", "/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name%3D%3Dabc,x%3Dy")),
            "list g= v=v1 r=configmaps sub= ns=ns name=abc");
  EXPECT_EQ(show(attrs("GET", "/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name!%3Dabc")), "list g= v=v1 r=configmaps sub= ns=ns name=");
  EXPECT_EQ(show(attrs("GET", "/api/v1/watch/namespaces/ns/configmaps")), "watch g= v=v1 r=configmaps sub= ns=ns name=");
  EXPECT_EQ(show(attrs("GET", "/api/v1/watch/namespaces/ns/configmaps/x")), "watch g= v=v1 r=configmaps sub= ns=ns name=x");
  EXPECT_EQ(show(attrs("GET", "/api/v1/proxy/namespaces/ns/pods/p/extra/path")), "proxy g= v=v1 r=pods sub= ns=ns name=p");
}

TEST(RequestAttributes, NonResourceRequests) {
  EXPECT_EQ(show(attrs("GET", "/apis")), "path get /apis");
  EXPECT_EQ(show(attrs("GET", "/apis/apps")), "path get /apis/apps");
  EXPECT_EQ(show(attrs("GET", "/apis/apps/v1")), "path get /apis/apps/v1");
  EXPECT_EQ(show(attrs("GET", "/api/v1")), "path get /api/v1");
  EXPECT_EQ(show(attrs("GET", "/healthz?verbose")), "path get /healthz");
  EXPECT_EQ(show(attrs("POST", "/debug/capstan/compact")), "path post /debug/capstan/compact");
  EXPECT_EQ(show(attrs("GET", "/openapi/v3/apis/apps/v1")), "path get /openapi/v3/apis/apps/v1");
}

}  // namespace
}  // namespace capstan::apiserver::auth
