#include "runtime/http/message.h"

#include <gtest/gtest.h>

namespace capstan::http {
namespace {

TEST(HttpMessage, HeadersCaseInsensitive) {
  Headers h;
  h.add("Content-Type", "application/json");
  EXPECT_EQ(h.get("content-type").value(), "application/json");
  h.set("CONTENT-TYPE", "text/plain");
  EXPECT_EQ(h.entries().size(), 1u);
  EXPECT_EQ(h.get_or("x-missing", "d"), "d");
}

TEST(HttpMessage, QueryParseAndEncode) {
  auto q = Query::parse("labelSelector=app%3Dweb%2Ctier+in+%28a%29&watch=1&empty=&flag");
  EXPECT_EQ(q.get("labelSelector").value(), "app=web,tier in (a)");
  EXPECT_EQ(q.get("watch").value(), "1");
  EXPECT_EQ(q.get("empty").value(), "");
  EXPECT_TRUE(q.has("flag"));
  EXPECT_FALSE(q.has("nope"));
  Query out;
  out.add("fieldSelector", "metadata.name=a/b");
  out.add("limit", "500");
  EXPECT_EQ(out.encode(), "fieldSelector=metadata.name%3Da%2Fb&limit=500");
  EXPECT_EQ(Query::parse(out.encode()).get("fieldSelector").value(), "metadata.name=a/b");
}

TEST(HttpMessage, UrlParse) {
  auto u = Url::parse("https://127.0.0.1:6443/api/v1/namespaces?limit=5");
  EXPECT_EQ(u.scheme, "https");
  EXPECT_EQ(u.host, "127.0.0.1");
  EXPECT_EQ(u.port, 6443);
  EXPECT_EQ(u.target, "/api/v1/namespaces?limit=5");
  auto v6 = Url::parse("http://[::1]/x");
  EXPECT_EQ(v6.host, "::1");
  EXPECT_EQ(v6.port, 80);
  EXPECT_EQ(v6.origin(), "http://[::1]:80");
  EXPECT_THROW(Url::parse("ftp://x/"), std::invalid_argument);
  EXPECT_THROW(Url::parse("not a url"), std::invalid_argument);
}

TEST(HttpMessage, RequestPathAndQuery) {
  Request r;
  r.target = "/api/v1/pods?watch=1";
  EXPECT_EQ(r.path(), "/api/v1/pods");
  EXPECT_EQ(r.raw_query(), "watch=1");
}

}  // namespace
}  // namespace capstan::http
