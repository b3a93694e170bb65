// The bytes of a complete (not streamed) response as the server writes them: status line,
// headers, Content-Length and the body, in one buffer that goes out in one write. Beast's
// message and serializer did this before with an allocation per header and a composed write
// of several buffers; for a 1 KiB admission review that was a sixth of the server's time.
#pragma once

#include "runtime/http/message.h"

#include <string>

namespace capstan::http {

// `keep_alive` and `version` (10 or 11) say what the connection does next, as Beast's
// message::keep_alive(): HTTP/1.1 closing says `Connection: close`, HTTP/1.0 staying open
// says `Connection: keep-alive`. Content-Length is computed (a handler's own is dropped), and
// left out with the body for 1xx, 204 and 304 answers, which have none (RFC 9110 6.4.1).
std::string serialize_response(const Response& response, bool keep_alive, unsigned version);

}  // namespace capstan::http
