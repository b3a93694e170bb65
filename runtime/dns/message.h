// DNS messages (RFC 1035) as far as the ACME DNS-01 solver needs them: queries, RFC 2136
// dynamic updates and their answers. Encoding never compresses names; decoding follows
// compression pointers with bounds on every length, offset and count, so a hostile answer
// throws DnsError instead of reading out of bounds or looping.
//
//   dns::Message q = dns::Message::query("_acme-challenge.example.com", dns::type::kTXT);
//   std::string wire = q.encode();
//   dns::Message answer = dns::Message::decode(reply_bytes);
//   for (const auto& rr : answer.answers) if (rr.type == dns::type::kTXT) ... dns::txt_strings(rr.rdata)
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace capstan::dns {

class DnsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace type {
inline constexpr std::uint16_t kA = 1, kNS = 2, kCNAME = 5, kSOA = 6, kTXT = 16, kAAAA = 28, kTSIG = 250, kANY = 255;
}
namespace klass {
inline constexpr std::uint16_t kIN = 1, kNONE = 254, kANY = 255;
}
namespace opcode {
inline constexpr int kQuery = 0, kUpdate = 5;
}
namespace rcode {
inline constexpr int kNoError = 0, kFormErr = 1, kServFail = 2, kNXDomain = 3, kNotImp = 4, kRefused = 5,
                     kYXDomain = 6, kYXRRSet = 7, kNXRRSet = 8, kNotAuth = 9, kNotZone = 10,
                     // TSIG errors (RFC 8945), carried in the TSIG record's error field
                     kBadSig = 16, kBadKey = 17, kBadTime = 18, kBadTrunc = 22;
}
// "NOERROR", "NXDOMAIN", "BADSIG", ... ("RCODE42" for the rest).
std::string rcode_name(int code);

inline constexpr std::size_t kMaxName = 253;     // presentation form, without the trailing dot
inline constexpr std::size_t kMaxLabel = 63;
inline constexpr std::size_t kMaxMessage = 65535;  // a TCP message's length prefix is 16 bits
inline constexpr std::size_t kMaxRecords = 1024;   // per section, decoding

// A domain name in the form used throughout: lower-case ASCII, no trailing dot, "" for the root.
// Throws DnsError for an empty or over-long label, an over-long name, or bytes outside
// letters, digits, '-', '_' and '*'.
std::string canonical_name(std::string_view name);
// `name` (canonical) in uncompressed wire form.
void write_name(std::string& out, std::string_view name);

struct Question {
  std::string name;
  std::uint16_t type = 0;
  std::uint16_t klass = klass::kIN;
};

struct Record {
  std::string name;
  std::uint16_t type = 0;
  std::uint16_t klass = klass::kIN;
  std::uint32_t ttl = 0;
  std::string rdata;  // raw; names inside may be compressed against the message they came in
  std::string target;  // decode(): the name a CNAME or NS record points to
};

// For an UPDATE (opcode 5) the sections are zone, prerequisites, updates, additional.
struct Message {
  std::uint16_t id = 0;
  std::uint16_t flags = 0;  // QR | opcode | AA | TC | RD | RA | Z | rcode (low 4 bits)
  std::vector<Question> questions;
  std::vector<Record> answers;
  std::vector<Record> authority;
  std::vector<Record> additional;
  // decode(): where the last additional record starts in the wire (a TSIG record is last).
  std::size_t last_additional_offset = 0;

  int opcode() const { return (flags >> 11) & 0xF; }
  int rcode() const { return flags & 0xF; }
  bool response() const { return (flags & 0x8000) != 0; }
  bool authoritative() const { return (flags & 0x0400) != 0; }
  bool truncated() const { return (flags & 0x0200) != 0; }

  std::string encode() const;
  static Message decode(std::string_view wire);

  // A query (random id, recursion not desired) for `name` and `type`, class IN.
  static Message query(std::string_view name, std::uint16_t type);
  // An UPDATE of `zone` with no prerequisites and `updates` (random id).
  static Message update(std::string_view zone, std::vector<Record> updates);
};

// TXT rdata holding `text` as character-strings of at most 255 bytes.
std::string txt_rdata(std::string_view text);
// The character-strings of a TXT rdata, concatenated (RFC 7208 §3.3 reading); throws DnsError
// when a length runs past the rdata.
std::string txt_text(std::string_view rdata);

// Decodes the (possibly compressed) name at `offset` of `wire`; advances `offset` past it.
std::string read_name(std::string_view wire, std::size_t& offset);

}  // namespace capstan::dns
