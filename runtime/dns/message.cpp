#include "runtime/dns/message.h"

#include "runtime/pki/random.h"

#include <cstring>

namespace capstan::dns {
namespace {

constexpr int kMaxPointerHops = 64;

void put16(std::string& out, std::uint16_t v) {
  out.push_back(static_cast<char>(v >> 8));
  out.push_back(static_cast<char>(v & 0xFF));
}
void put32(std::string& out, std::uint32_t v) {
  put16(out, static_cast<std::uint16_t>(v >> 16));
  put16(out, static_cast<std::uint16_t>(v & 0xFFFF));
}

class Cursor {
 public:
  Cursor(std::string_view wire, std::size_t offset) : wire_(wire), offset_(offset) {}
  std::size_t offset() const { return offset_; }
  void need(std::size_t n, const char* what) const {
    if (n > wire_.size() - offset_) throw DnsError(std::string("DNS message truncated in ") + what);
  }
  std::uint16_t u16(const char* what) {
    need(2, what);
    auto v = static_cast<std::uint16_t>((static_cast<unsigned char>(wire_[offset_]) << 8) | static_cast<unsigned char>(wire_[offset_ + 1]));
    offset_ += 2;
    return v;
  }
  std::uint32_t u32(const char* what) {
    std::uint32_t hi = u16(what);
    return (hi << 16) | u16(what);
  }
  std::string_view bytes(std::size_t n, const char* what) {
    need(n, what);
    auto v = wire_.substr(offset_, n);
    offset_ += n;
    return v;
  }
  std::string name() { return read_name(wire_, offset_); }

 private:
  std::string_view wire_;
  std::size_t offset_;
};

Record read_record(std::string_view wire, Cursor& c) {
  Record r;
  r.name = c.name();
  r.type = c.u16("a record's type");
  r.klass = c.u16("a record's class");
  r.ttl = c.u32("a record's TTL");
  std::uint16_t len = c.u16("a record's data length");
  std::size_t rdata_at = c.offset();
  r.rdata = std::string(c.bytes(len, "a record's data"));
  if (r.type == type::kCNAME || r.type == type::kNS) {
    std::size_t at = rdata_at;
    r.target = read_name(wire, at);
    if (at > rdata_at + len) throw DnsError("DNS message: a " + std::string(r.type == type::kNS ? "NS" : "CNAME") +
                                            " record's target runs past its data");
  }
  return r;
}

void write_record(std::string& out, const Record& r) {
  write_name(out, r.name);
  put16(out, r.type);
  put16(out, r.klass);
  put32(out, r.ttl);
  if (r.rdata.size() > 0xFFFF) throw DnsError("DNS record data over 65535 bytes for " + r.name);
  put16(out, static_cast<std::uint16_t>(r.rdata.size()));
  out += r.rdata;
}

std::uint16_t random_id() {
  std::string b = pki::random_bytes(2);
  return static_cast<std::uint16_t>((static_cast<unsigned char>(b[0]) << 8) | static_cast<unsigned char>(b[1]));
}

bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '*';
}

}  // namespace

std::string rcode_name(int code) {
  static const char* const names[] = {"NOERROR", "FORMERR", "SERVFAIL", "NXDOMAIN", "NOTIMP", "REFUSED",
                                      "YXDOMAIN", "YXRRSET", "NXRRSET", "NOTAUTH", "NOTZONE"};
  if (code >= 0 && code <= 10) return names[code];
  switch (code) {
    case rcode::kBadSig: return "BADSIG";
    case rcode::kBadKey: return "BADKEY";
    case rcode::kBadTime: return "BADTIME";
    case rcode::kBadTrunc: return "BADTRUNC";
    default: return "RCODE" + std::to_string(code);
  }
}

std::string canonical_name(std::string_view name) {
  if (!name.empty() && name.back() == '.') name.remove_suffix(1);
  if (name.size() > kMaxName) throw DnsError("DNS name \"" + std::string(name.substr(0, 64)) + "...\" is longer than 253 bytes");
  std::string out;
  out.reserve(name.size());
  std::size_t label = 0;
  for (char c : name) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c == '.') {
      if (label == 0) throw DnsError("DNS name \"" + std::string(name) + "\" has an empty label");
      label = 0;
    } else {
      if (!name_char(c)) throw DnsError("DNS name \"" + std::string(name) + "\" holds a byte outside letters, digits, '-', '_' and '*'");
      if (++label > kMaxLabel) throw DnsError("DNS name \"" + std::string(name) + "\" has a label longer than 63 bytes");
    }
    out.push_back(c);
  }
  if (!out.empty() && label == 0) throw DnsError("DNS name \"" + std::string(name) + "\" has an empty label");
  return out;
}

void write_name(std::string& out, std::string_view name) {
  std::size_t start = 0;
  while (start < name.size()) {
    std::size_t dot = name.find('.', start);
    if (dot == std::string_view::npos) dot = name.size();
    std::size_t len = dot - start;
    if (len == 0 || len > kMaxLabel) throw DnsError("DNS name \"" + std::string(name) + "\" has an empty or over-long label");
    out.push_back(static_cast<char>(len));
    out.append(name.substr(start, len));
    start = dot + 1;
  }
  out.push_back('\0');
}

std::string read_name(std::string_view wire, std::size_t& offset) {
  std::string out;
  std::size_t at = offset;
  bool jumped = false;
  int hops = 0;
  while (true) {
    if (at >= wire.size()) throw DnsError("DNS message truncated in a name");
    auto len = static_cast<unsigned char>(wire[at]);
    if ((len & 0xC0) == 0xC0) {
      if (at + 1 >= wire.size()) throw DnsError("DNS message truncated in a name pointer");
      std::size_t target = (static_cast<std::size_t>(len & 0x3F) << 8) | static_cast<unsigned char>(wire[at + 1]);
      if (++hops > kMaxPointerHops) throw DnsError("DNS message: a name's compression pointers loop");
      if (!jumped) offset = at + 2;
      jumped = true;
      at = target;
      continue;
    }
    if (len & 0xC0) throw DnsError("DNS message: a name uses an unknown label type");
    if (len == 0) {
      if (!jumped) offset = at + 1;
      break;
    }
    if (at + 1 + len > wire.size()) throw DnsError("DNS message truncated in a label");
    if (!out.empty()) out.push_back('.');
    for (std::size_t i = 0; i < len; ++i) {
      char c = wire[at + 1 + i];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      out.push_back(c);
    }
    if (out.size() > kMaxName) throw DnsError("DNS message: a name is longer than 253 bytes");
    at += 1 + len;
  }
  return out;
}

std::string Message::encode() const {
  std::string out;
  put16(out, id);
  put16(out, flags);
  put16(out, static_cast<std::uint16_t>(questions.size()));
  put16(out, static_cast<std::uint16_t>(answers.size()));
  put16(out, static_cast<std::uint16_t>(authority.size()));
  put16(out, static_cast<std::uint16_t>(additional.size()));
  for (const auto& q : questions) {
    write_name(out, q.name);
    put16(out, q.type);
    put16(out, q.klass);
  }
  for (const auto* section : {&answers, &authority, &additional})
    for (const auto& r : *section) write_record(out, r);
  if (out.size() > kMaxMessage) throw DnsError("DNS message over 65535 bytes");
  return out;
}

Message Message::decode(std::string_view wire) {
  if (wire.size() > kMaxMessage) throw DnsError("DNS message over 65535 bytes");
  Cursor c(wire, 0);
  Message m;
  m.id = c.u16("the header");
  m.flags = c.u16("the header");
  std::uint16_t counts[4];
  for (auto& n : counts) {
    n = c.u16("the header");
    if (n > kMaxRecords) throw DnsError("DNS message claims " + std::to_string(n) + " records in one section (at most 1024)");
  }
  for (std::uint16_t i = 0; i < counts[0]; ++i) {
    Question q;
    q.name = c.name();
    q.type = c.u16("a question");
    q.klass = c.u16("a question");
    m.questions.push_back(std::move(q));
  }
  for (std::uint16_t i = 0; i < counts[1]; ++i) m.answers.push_back(read_record(wire, c));
  for (std::uint16_t i = 0; i < counts[2]; ++i) m.authority.push_back(read_record(wire, c));
  for (std::uint16_t i = 0; i < counts[3]; ++i) {
    m.last_additional_offset = c.offset();
    m.additional.push_back(read_record(wire, c));
  }
  return m;
}

Message Message::query(std::string_view name, std::uint16_t type) {
  Message m;
  m.id = random_id();
  m.questions.push_back(Question{canonical_name(name), type, klass::kIN});
  return m;
}

Message Message::update(std::string_view zone, std::vector<Record> updates) {
  Message m;
  m.id = random_id();
  m.flags = static_cast<std::uint16_t>(opcode::kUpdate << 11);
  m.questions.push_back(Question{canonical_name(zone), type::kSOA, klass::kIN});
  m.authority = std::move(updates);
  return m;
}

std::string txt_rdata(std::string_view text) {
  std::string out;
  do {
    std::size_t n = std::min<std::size_t>(text.size(), 255);
    out.push_back(static_cast<char>(n));
    out.append(text.substr(0, n));
    text.remove_prefix(n);
  } while (!text.empty());
  return out;
}

std::string txt_text(std::string_view rdata) {
  std::string out;
  std::size_t at = 0;
  while (at < rdata.size()) {
    std::size_t n = static_cast<unsigned char>(rdata[at]);
    if (at + 1 + n > rdata.size()) throw DnsError("TXT record: a character-string runs past the record's data");
    out.append(rdata.substr(at + 1, n));
    at += 1 + n;
  }
  return out;
}

}  // namespace capstan::dns
