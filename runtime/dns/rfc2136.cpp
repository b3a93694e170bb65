#include "runtime/dns/rfc2136.h"

#include "runtime/dns/zone_lookup.h"

#include <ctime>

namespace capstan::dns {
namespace {

std::uint16_t id_of(std::string_view wire) {
  return static_cast<std::uint16_t>((static_cast<unsigned char>(wire[0]) << 8) | static_cast<unsigned char>(wire[1]));
}

std::int64_t now_seconds() { return static_cast<std::int64_t>(std::time(nullptr)); }

}  // namespace

std::string exchange(const net::HostPort& server, std::string_view request, std::chrono::milliseconds timeout) {
  if (request.size() > kMaxMessage) throw DnsError("DNS request over 65535 bytes");
  try {
    net::TcpStream tcp(server, net::Clock::now() + timeout);
    std::string framed;
    framed.push_back(static_cast<char>(request.size() >> 8));
    framed.push_back(static_cast<char>(request.size() & 0xFF));
    framed.append(request);
    tcp.write_all(framed);
    std::string len = tcp.read_exact(2);
    std::size_t n = (static_cast<std::size_t>(static_cast<unsigned char>(len[0])) << 8) | static_cast<unsigned char>(len[1]);
    if (n < 12) throw DnsError("DNS server " + server.to_string() + " answered " + std::to_string(n) + " bytes, less than a header");
    std::string answer = tcp.read_exact(n);
    if (id_of(answer) != id_of(request)) throw DnsError("DNS server " + server.to_string() + " answered another request's id");
    return answer;
  } catch (const net::NetError& e) {
    throw DnsError(std::string("DNS server ") + e.what());
  }
}

Rfc2136::Rfc2136(Rfc2136Options options) : options_(std::move(options)) {
  if (options_.key) options_.key->name = canonical_name(options_.key->name);
}

Message Rfc2136::ask(std::string_view name, std::uint16_t type) const {
  Message q = Message::query(name, type);
  std::string wire = exchange(options_.server, q.encode(), options_.timeout);
  Message a = Message::decode(wire);
  if (!a.response()) throw DnsError("DNS server " + options_.server.to_string() + " sent a query, not an answer");
  return a;
}

std::string Rfc2136::find_zone(std::string_view name) const {
  // The server is authoritative: the root zone is one it may hold.
  ZoneSearch z = dns::find_zone([this](std::string_view n, std::uint16_t t) { return ask(n, t); }, name, true);
  if (z.zone) return *z.zone;
  throw DnsError("DNS server " + options_.server.to_string() + " is not authoritative for any zone holding \"" +
                 std::string(name) + "\"" + (z.last_error.empty() ? std::string() : " (it answered " + z.last_error + ")"));
}

std::string Rfc2136::follow_cnames(std::string_view name) const {
  return dns::follow_cnames([this](std::string_view n, std::uint16_t t) { return ask(n, t); }, name);
}

void Rfc2136::update(std::string_view zone, Record record, const char* what) const {
  Message m = Message::update(zone, {std::move(record)});
  std::string wire = m.encode();
  std::string mac;
  if (options_.key) {
    Signed s = tsig_sign(wire, *options_.key, now_seconds());
    wire = std::move(s.wire);
    mac = std::move(s.mac);
  }
  std::string answer_wire = exchange(options_.server, wire, options_.timeout);
  Message answer = Message::decode(answer_wire);
  const std::string where = std::string(what) + " in zone \"" + std::string(zone) + "\" on " + options_.server.to_string();
  if (options_.key) {
    try {
      tsig_verify(answer_wire, answer, *options_.key, mac, now_seconds());
    } catch (const DnsError& e) {
      throw DnsError(where + ": " + e.what());
    }
  }
  if (answer.rcode() != rcode::kNoError) throw DnsError(where + ": the server answered " + rcode_name(answer.rcode()));
}

void Rfc2136::add_txt(std::string_view zone, std::string_view name, std::string_view value) const {
  update(zone, Record{canonical_name(name), type::kTXT, klass::kIN, options_.ttl, txt_rdata(value), {}},
         "adding a TXT record");
}

void Rfc2136::remove_txt(std::string_view zone, std::string_view name, std::string_view value) const {
  // Class NONE, TTL 0: delete this RR from the RRset (RFC 2136 §2.5.4).
  update(zone, Record{canonical_name(name), type::kTXT, klass::kNONE, 0, txt_rdata(value), {}}, "removing a TXT record");
}

std::vector<std::string> Rfc2136::txt(std::string_view name) const {
  std::string n = canonical_name(name);
  Message a = ask(n, type::kTXT);
  std::vector<std::string> out;
  if (a.rcode() != rcode::kNoError) return out;
  for (const auto& rr : a.answers)
    if (rr.type == type::kTXT && rr.name == n) out.push_back(txt_text(rr.rdata));
  return out;
}

}  // namespace capstan::dns
