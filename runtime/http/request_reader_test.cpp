#include "runtime/http/request_reader.h"

#include <gtest/gtest.h>

namespace capstan::http {
namespace {

TEST(ReadRequest, ReadsWhatTheServerReads) {
  std::string wire =
      "POST /api/v1/namespaces/default/configmaps?dryRun=All HTTP/1.1\r\nHost: x\r\n"
      "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}GET /healthz HTTP/1.0\r\n\r\n";
  auto first = read_request(wire, 1024);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->request.method, "POST");
  EXPECT_EQ(first->request.path(), "/api/v1/namespaces/default/configmaps");
  EXPECT_EQ(first->request.raw_query(), "dryRun=All");
  EXPECT_EQ(first->request.headers.get("content-type").value(), "application/json");
  EXPECT_EQ(first->request.body, "{}");
  EXPECT_TRUE(first->keep_alive);
  auto second = read_request(std::string_view(wire).substr(first->consumed), 1024);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->request.target, "/healthz");
  EXPECT_EQ(second->version, 10u);
  EXPECT_FALSE(second->keep_alive);
}

TEST(ReadRequest, ChunkedBodiesAreJoined) {
  auto r = read_request("PATCH /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n", 1024);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->request.body, "abcde");
}

TEST(ReadRequest, RefusalsSayWhy) {
  std::string error;
  EXPECT_FALSE(read_request("GET / HTTP/1.1\r\nHost: x\r\n", 1024, &error));  // no end of header
  EXPECT_EQ(error, "partial message");
  EXPECT_FALSE(read_request("POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n{}", 1024, &error));
  EXPECT_EQ(error, "partial message");
  EXPECT_FALSE(read_request("POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n0123456789", 4, &error));
  EXPECT_EQ(error, "body limit exceeded");
  // Found by fuzzing: an empty input tripped an assertion in Beast's put_eof.
  EXPECT_FALSE(read_request("", 1024, &error));
  EXPECT_EQ(error, "end of stream");
  EXPECT_FALSE(read_request("G\x01T / HTTP/1.1\r\n\r\n", 1024, &error));
  EXPECT_FALSE(error.empty());
}

}  // namespace
}  // namespace capstan::http
