#include "runtime/http/response_writer.h"

#include <gtest/gtest.h>

namespace capstan::http {
namespace {

TEST(SerializeResponse, StatusHeadersLengthAndBodyInOneBuffer) {
  Response r(200, R"({"ok":true})");
  r.headers.add("Audit-Id", "abc");
  EXPECT_EQ(serialize_response(r, true, 11),
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nAudit-Id: abc\r\nContent-Length: 11\r\n\r\n{\"ok\":true}");
}

TEST(SerializeResponse, ConnectionSaysWhatHappensNext) {
  Response r(413, "request body too large", "text/plain");
  EXPECT_EQ(serialize_response(r, false, 11),
            "HTTP/1.1 413 Payload Too Large\r\nContent-Type: text/plain\r\nConnection: close\r\nContent-Length: 22\r\n\r\n"
            "request body too large");
  Response empty(200, "");
  EXPECT_EQ(serialize_response(empty, true, 10),
            "HTTP/1.0 200 OK\r\nContent-Type: application/json\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n");
  EXPECT_EQ(serialize_response(empty, false, 10), "HTTP/1.0 200 OK\r\nContent-Type: application/json\r\nContent-Length: 0\r\n\r\n");
}

TEST(SerializeResponse, AHandlersOwnLengthAndConnectionAreReplaced) {
  Response r(201, "abc", "text/plain");
  r.headers.add("Content-Length", "99");
  r.headers.add("connection", "upgrade");
  EXPECT_EQ(serialize_response(r, true, 11), "HTTP/1.1 201 Created\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n\r\nabc");
}

TEST(SerializeResponse, NoContentAndNotModifiedCarryNoBody) {
  Response r(204, "ignored", "text/plain");
  EXPECT_EQ(serialize_response(r, true, 11), "HTTP/1.1 204 No Content\r\nContent-Type: text/plain\r\n\r\n");
  r.status = 304;
  EXPECT_EQ(serialize_response(r, true, 11), "HTTP/1.1 304 Not Modified\r\nContent-Type: text/plain\r\n\r\n");
}

}  // namespace
}  // namespace capstan::http
