#include "controllers/gitops/sops/age.h"

#include "controllers/gitops/sops/crypto.h"
#include "controllers/gitops/sops/error.h"
#include "runtime/meta/base64.h"

#include <openssl/crypto.h>

#include <array>
#include <cstdint>
#include <optional>

namespace capstan::gitops::sops {
namespace {

// ---- Bech32 (BIP 173), as age encodes keys; age sets no length limit ----------------------
constexpr std::string_view kCharset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";

std::uint32_t polymod(const std::vector<std::uint8_t>& values) {
  constexpr std::array<std::uint32_t, 5> gen = {0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3};
  std::uint32_t chk = 1;
  for (std::uint8_t v : values) {
    std::uint32_t top = chk >> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (int i = 0; i < 5; ++i)
      if ((top >> i) & 1) chk ^= gen[static_cast<std::size_t>(i)];
  }
  return chk;
}

std::vector<std::uint8_t> hrp_expand(std::string_view hrp) {
  std::vector<std::uint8_t> out;
  for (char c : hrp) out.push_back(static_cast<std::uint8_t>(static_cast<unsigned char>(c) >> 5));
  out.push_back(0);
  for (char c : hrp) out.push_back(static_cast<std::uint8_t>(static_cast<unsigned char>(c) & 31));
  return out;
}

// Regroups bits; `pad` for encoding. nullopt when decoding leaves non-zero or whole extra bits.
std::optional<std::vector<std::uint8_t>> convert_bits(const std::vector<std::uint8_t>& in, int from, int to, bool pad) {
  std::uint32_t acc = 0;
  int bits = 0;
  std::vector<std::uint8_t> out;
  const std::uint32_t maxv = (1u << to) - 1;
  for (std::uint8_t v : in) {
    acc = (acc << from) | v;
    bits += from;
    while (bits >= to) {
      bits -= to;
      out.push_back(static_cast<std::uint8_t>((acc >> bits) & maxv));
    }
  }
  if (pad) {
    if (bits > 0) out.push_back(static_cast<std::uint8_t>((acc << (to - bits)) & maxv));
  } else if (bits >= from || ((acc << (to - bits)) & maxv) != 0) {
    return std::nullopt;
  }
  return out;
}

// Lower-case Bech32 "<hrp>1<data><checksum>" -> (hrp, bytes); nullopt on any error.
std::optional<std::pair<std::string, std::string>> bech32_decode(std::string text) {
  bool lower = false, upper = false;
  for (char& c : text) {
    if (c < 33 || c > 126) return std::nullopt;
    if (c >= 'a' && c <= 'z') lower = true;
    if (c >= 'A' && c <= 'Z') {
      upper = true;
      c = static_cast<char>(c - 'A' + 'a');
    }
  }
  if (lower && upper) return std::nullopt;
  std::size_t sep = text.rfind('1');
  if (sep == std::string::npos || sep == 0 || sep + 7 > text.size()) return std::nullopt;
  std::string hrp = text.substr(0, sep);
  std::vector<std::uint8_t> data;
  for (std::size_t i = sep + 1; i < text.size(); ++i) {
    std::size_t v = kCharset.find(text[i]);
    if (v == std::string_view::npos) return std::nullopt;
    data.push_back(static_cast<std::uint8_t>(v));
  }
  std::vector<std::uint8_t> check = hrp_expand(hrp);
  check.insert(check.end(), data.begin(), data.end());
  if (polymod(check) != 1) return std::nullopt;
  data.resize(data.size() - 6);
  auto bytes = convert_bits(data, 5, 8, false);
  if (!bytes) return std::nullopt;
  return std::pair{hrp, std::string(bytes->begin(), bytes->end())};
}

std::string bech32_encode(std::string_view hrp, std::string_view payload) {
  std::vector<std::uint8_t> data = *convert_bits(std::vector<std::uint8_t>(payload.begin(), payload.end()), 8, 5, true);
  std::vector<std::uint8_t> check = hrp_expand(hrp);
  check.insert(check.end(), data.begin(), data.end());
  check.insert(check.end(), 6, 0);
  std::uint32_t mod = polymod(check) ^ 1;
  std::string out(hrp);
  out += '1';
  for (std::uint8_t v : data) out += kCharset[v];
  for (int i = 0; i < 6; ++i) out += kCharset[(mod >> (5 * (5 - i))) & 31];
  return out;
}

// ---- the age format ---------------------------------------------------------------------------
constexpr std::string_view kVersionLine = "age-encryption.org/v1";
constexpr std::string_view kArmorBegin = "-----BEGIN AGE ENCRYPTED FILE-----";
constexpr std::string_view kArmorEnd = "-----END AGE ENCRYPTED FILE-----";
constexpr std::size_t kChunk = 64 * 1024;
constexpr std::size_t kTag = 16;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r' || s.front() == '\n')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n')) s.remove_suffix(1);
  return s;
}

// age's base64: the standard alphabet without padding, canonical.
std::optional<std::string> b64(std::string_view text) {
  for (char c : text)
    if (c == '=' || c == '\n' || c == '\r' || c == ' ') return std::nullopt;
  auto out = meta::base64_decode(text);
  if (!out || meta::base64_encode(*out).substr(0, text.size()) != text) return std::nullopt;
  return out;
}

struct Stanza {
  std::vector<std::string> args;  // type first
  std::string body;
};

struct Header {
  std::vector<Stanza> stanzas;
  std::string_view mac_input;  // from the version line to "---" inclusive
  std::string mac;
  std::string_view payload;
};

[[noreturn]] void malformed(std::string_view why) { throw DecryptError("malformed age file: " + std::string(why)); }

// Reads one line (without its '\n'); the line must end in '\n'.
std::string_view next_line(std::string_view data, std::size_t& pos) {
  std::size_t nl = data.find('\n', pos);
  if (nl == std::string_view::npos) malformed("the header ends without a newline");
  std::string_view line = data.substr(pos, nl - pos);
  pos = nl + 1;
  return line;
}

std::vector<std::string> split_args(std::string_view line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= line.size()) {
    std::size_t sp = line.find(' ', start);
    if (sp == std::string_view::npos) sp = line.size();
    if (sp == start) malformed("an empty stanza argument");
    out.emplace_back(line.substr(start, sp - start));
    start = sp + 1;
  }
  return out;
}

Header parse_header(std::string_view data) {
  Header h;
  std::size_t pos = 0;
  if (next_line(data, pos) != kVersionLine) malformed("it does not start with \"age-encryption.org/v1\"");
  while (true) {
    std::size_t line_start = pos;
    std::string_view line = next_line(data, pos);
    if (line.starts_with("--- ")) {
      h.mac_input = data.substr(0, line_start + 3);
      auto mac = b64(line.substr(4));
      if (!mac || mac->size() != 32) malformed("the header MAC is not 32 bytes of base64");
      h.mac = *mac;
      h.payload = data.substr(pos);
      return h;
    }
    if (!line.starts_with("-> ")) malformed("a header line is neither a stanza nor the MAC");
    if (h.stanzas.size() >= kMaxStanzas) malformed("more than " + std::to_string(kMaxStanzas) + " stanzas");
    Stanza s;
    s.args = split_args(line.substr(3));
    std::string body_text;
    while (true) {
      std::string_view body_line = next_line(data, pos);
      if (body_line.size() > 64) malformed("a stanza body line is longer than 64 columns");
      body_text += body_line;
      if (body_line.size() < 64) break;
    }
    auto body = b64(body_text);
    if (!body) malformed("a stanza body is not base64");
    s.body = std::move(*body);
    h.stanzas.push_back(std::move(s));
  }
}

std::string dearmor(std::string_view text) {
  text = trim(text);
  if (!text.starts_with(kArmorBegin) || !text.ends_with(kArmorEnd)) malformed("the armor has no BEGIN or END line");
  std::string_view inner = text.substr(kArmorBegin.size(), text.size() - kArmorBegin.size() - kArmorEnd.size());
  auto out = meta::base64_decode(inner);
  if (!out) malformed("the armored body is not base64");
  return *out;
}

std::string nonce_for(std::uint64_t counter, bool last) {
  std::string nonce(12, '\0');
  for (int i = 0; i < 8; ++i) nonce[10 - static_cast<std::size_t>(i)] = static_cast<char>((counter >> (8 * i)) & 0xff);
  nonce[11] = last ? 1 : 0;
  return nonce;
}

std::string open_payload(std::string_view file_key, std::string_view payload) {
  if (payload.size() < 16) malformed("the payload has no nonce");
  std::string key = crypto::hkdf_sha256(file_key, payload.substr(0, 16), "payload", 32);
  std::string_view rest = payload.substr(16);
  std::string out;
  std::uint64_t counter = 0;
  do {
    std::size_t take = std::min(rest.size(), kChunk + kTag);
    bool last = take == rest.size();
    if (take < kTag) throw DecryptError("age payload is truncated");
    if (last && take == kTag && counter > 0) throw DecryptError("age payload ends with an empty chunk");
    auto chunk = crypto::chacha20poly1305_open(key, nonce_for(counter, last), rest.substr(0, take));
    if (!chunk) throw DecryptError("age payload failed authentication (tampered or truncated)");
    out += *chunk;
    OPENSSL_cleanse(chunk->data(), chunk->size());
    rest.remove_prefix(take);
    ++counter;
  } while (!rest.empty());
  OPENSSL_cleanse(key.data(), key.size());
  return out;
}

}  // namespace

std::string age_recipient(std::string_view public_key) { return bech32_encode("age", public_key); }

std::vector<AgeIdentity> parse_age_identities(std::string_view text) {
  if (text.size() > kMaxIdentityFileBytes)
    throw DecryptError("the age identity file is larger than " + std::to_string(kMaxIdentityFileBytes) + " bytes");
  std::vector<AgeIdentity> out;
  std::size_t line_no = 0;
  while (!text.empty()) {
    std::size_t nl = text.find('\n');
    std::string_view line = trim(text.substr(0, nl));
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    ++line_no;
    if (line.empty() || line.front() == '#') continue;
    auto decoded = line.starts_with("AGE-SECRET-KEY-1") ? bech32_decode(std::string(line)) : std::nullopt;
    if (!decoded || decoded->first != "age-secret-key-" || decoded->second.size() != 32)
      throw DecryptError("line " + std::to_string(line_no) +
                         " of the age identity file is not an X25519 identity (AGE-SECRET-KEY-1...)");
    if (out.size() >= kMaxIdentities)
      throw DecryptError("the age identity file holds more than " + std::to_string(kMaxIdentities) + " identities");
    AgeIdentity id;
    id.secret = std::move(decoded->second);
    id.recipient = age_recipient(crypto::x25519_public(id.secret));
    out.push_back(std::move(id));
  }
  return out;
}

std::string age_decrypt(std::string_view file, const std::vector<AgeIdentity>& identities) {
  if (file.size() > kMaxAgeFileBytes)
    throw DecryptError("the age file is larger than " + std::to_string(kMaxAgeFileBytes) + " bytes");
  std::string dearmored;
  if (trim(file).starts_with(kArmorBegin)) {
    dearmored = dearmor(file);
    file = dearmored;
  }
  Header header = parse_header(file);
  std::optional<std::string> file_key;
  bool any_x25519 = false;
  for (const Stanza& s : header.stanzas) {
    if (s.args.empty() || s.args[0] != "X25519") continue;
    any_x25519 = true;
    if (s.args.size() != 2) malformed("an X25519 stanza needs exactly one argument");
    auto share = b64(s.args[1]);
    if (!share || share->size() != 32) malformed("an X25519 stanza's share is not 32 bytes");
    if (s.body.size() != 32) malformed("an X25519 stanza's body is not 32 bytes");
    for (const AgeIdentity& id : identities) {
      auto shared = crypto::x25519(id.secret, *share);
      if (!shared) malformed("an X25519 stanza's share is a low-order point");
      std::string salt = *share + crypto::x25519_public(id.secret);
      std::string wrap = crypto::hkdf_sha256(*shared, salt, "age-encryption.org/v1/X25519", 32);
      OPENSSL_cleanse(shared->data(), shared->size());
      file_key = crypto::chacha20poly1305_open(wrap, std::string(12, '\0'), s.body);
      OPENSSL_cleanse(wrap.data(), wrap.size());
      if (file_key) break;
    }
    if (file_key) break;
  }
  if (!file_key) {
    std::string tried;
    for (const AgeIdentity& id : identities) tried += (tried.empty() ? "" : ", ") + id.recipient;
    if (!any_x25519) throw DecryptError("the age file has no X25519 recipient (only plugin, scrypt or ssh stanzas)");
    throw DecryptError("no age identity matched the file's recipients (identities for: " +
                       (tried.empty() ? std::string("none") : tried) + ")");
  }
  std::string mac_key = crypto::hkdf_sha256(*file_key, "", "header", 32);
  bool mac_ok = crypto::equal(crypto::hmac_sha256(mac_key, header.mac_input), header.mac);
  OPENSSL_cleanse(mac_key.data(), mac_key.size());
  if (!mac_ok) {
    OPENSSL_cleanse(file_key->data(), file_key->size());
    throw DecryptError("the age header MAC does not match (the header was changed)");
  }
  std::string out = open_payload(*file_key, header.payload);
  OPENSSL_cleanse(file_key->data(), file_key->size());
  return out;
}

}  // namespace capstan::gitops::sops
