// Distinguished names and the v3 extensions shared by certificates and CSRs.
#include <arpa/inet.h>

#include <algorithm>
#include <array>

#include "runtime/pki/detail.h"

namespace capstan::pki::detail {
namespace {

// ---- names --------------------------------------------------------------------------------

void add_entry(X509_NAME* name, int nid, const std::string& value, std::string_view what) {
  if (value.empty()) return;
  if (X509_NAME_add_entry_by_NID(name, nid, MBSTRING_UTF8, reinterpret_cast<const unsigned char*>(value.data()),
                                 static_cast<int>(value.size()), -1, 0) != 1)
    fail(what, std::string("setting subject ") + OBJ_nid2ln(nid) + " \"" + value + "\"");
}

std::string entry_value(const X509_NAME_ENTRY* e) {
  unsigned char* utf8 = nullptr;
  int n = ASN1_STRING_to_UTF8(&utf8, X509_NAME_ENTRY_get_data(e));
  if (n < 0) return {};
  std::string out(reinterpret_cast<char*>(utf8), static_cast<size_t>(n));
  OPENSSL_free(utf8);
  return out;
}

using ObjectPtr = std::unique_ptr<ASN1_OBJECT, Deleter<ASN1_OBJECT, ASN1_OBJECT_free>>;

std::string oid_text(const ASN1_OBJECT* obj) {
  char buf[256];
  int n = OBJ_obj2txt(buf, sizeof buf, obj, 1);
  if (n <= 0) return {};
  if (static_cast<size_t>(n) < sizeof buf) return std::string(buf, static_cast<size_t>(n));
  std::string big(static_cast<size_t>(n) + 1, '\0');
  OBJ_obj2txt(big.data(), static_cast<int>(big.size()), obj, 1);
  big.resize(static_cast<size_t>(n));
  return big;
}

// ---- SANs ---------------------------------------------------------------------------------

using GeneralNamesPtr = std::unique_ptr<GENERAL_NAMES, Deleter<GENERAL_NAMES, GENERAL_NAMES_free>>;

bool is_ascii(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80 && c != 0; });
}

void add_ia5(GENERAL_NAMES* names, int type, const std::string& value, std::string_view kind,
             std::string_view what) {
  if (value.empty()) fail(what, std::string("empty ") + std::string(kind));
  if (!is_ascii(value))
    fail(what, std::string(kind) + " \"" + value + "\" must be ASCII (IA5String)");
  ASN1_IA5STRING* s = ASN1_IA5STRING_new();
  GENERAL_NAME* gn = GENERAL_NAME_new();
  if (!s || !gn || ASN1_STRING_set(s, value.data(), static_cast<int>(value.size())) != 1) {
    ASN1_IA5STRING_free(s);
    GENERAL_NAME_free(gn);
    fail(what, "allocating subjectAltName");
  }
  GENERAL_NAME_set0_value(gn, type, s);
  if (!sk_GENERAL_NAME_push(names, gn)) {
    GENERAL_NAME_free(gn);
    fail(what, "allocating subjectAltName");
  }
}

// A new OCTET STRING holding `bytes` (SAN IP addresses, key identifiers); null when allocating fails.
ASN1_OCTET_STRING* octets(const std::string& bytes) {
  ASN1_OCTET_STRING* s = ASN1_OCTET_STRING_new();
  if (s && ASN1_OCTET_STRING_set(s, reinterpret_cast<const unsigned char*>(bytes.data()),
                                 static_cast<int>(bytes.size())) == 1)
    return s;
  ASN1_OCTET_STRING_free(s);
  return nullptr;
}

void add_ip(GENERAL_NAMES* names, const std::string& value, std::string_view what) {
  unsigned char buf[16];
  int len = 0;
  if (inet_pton(AF_INET, value.c_str(), buf) == 1)
    len = 4;
  else if (inet_pton(AF_INET6, value.c_str(), buf) == 1)
    len = 16;
  else
    fail(what, "invalid IP address \"" + value + "\"");
  ASN1_OCTET_STRING* s = octets(std::string(reinterpret_cast<const char*>(buf), static_cast<size_t>(len)));
  GENERAL_NAME* gn = GENERAL_NAME_new();
  if (!s || !gn) {
    ASN1_OCTET_STRING_free(s);
    GENERAL_NAME_free(gn);
    fail(what, "allocating subjectAltName");
  }
  GENERAL_NAME_set0_value(gn, GEN_IPADD, s);
  if (!sk_GENERAL_NAME_push(names, gn)) {
    GENERAL_NAME_free(gn);
    fail(what, "allocating subjectAltName");
  }
}

// otherName: type-id OID and [0] EXPLICIT UTF8String.
void add_other_name(GENERAL_NAMES* names, const OtherName& o, std::string_view what) {
  if (o.utf8_value.empty()) fail(what, "otherName " + o.oid + " has an empty value");
  ObjectPtr oid(OBJ_txt2obj(o.oid.c_str(), 1));
  if (!oid) fail(what, "invalid otherName OID \"" + o.oid + "\"");
  ASN1_UTF8STRING* text = ASN1_UTF8STRING_new();
  ASN1_TYPE* value = ASN1_TYPE_new();
  GENERAL_NAME* gn = GENERAL_NAME_new();
  if (!text || !value || !gn ||
      ASN1_STRING_set(text, o.utf8_value.data(), static_cast<int>(o.utf8_value.size())) != 1) {
    ASN1_UTF8STRING_free(text);
    ASN1_TYPE_free(value);
    GENERAL_NAME_free(gn);
    fail(what, "allocating subjectAltName");
  }
  ASN1_TYPE_set(value, V_ASN1_UTF8STRING, text);
  if (GENERAL_NAME_set0_othername(gn, oid.get(), value) != 1) {
    ASN1_TYPE_free(value);
    GENERAL_NAME_free(gn);
    fail(what, "allocating subjectAltName");
  }
  oid.release();
  if (!sk_GENERAL_NAME_push(names, gn)) {
    GENERAL_NAME_free(gn);
    fail(what, "allocating subjectAltName");
  }
}

// "10.0.0.0/8" as address then mask (8 or 32 bytes), host bits cleared as Go's net.ParseCIDR does.
std::string cidr_bytes(const std::string& cidr, std::string_view what) {
  auto slash = cidr.find('/');
  if (slash == std::string::npos) fail(what, "invalid CIDR address: " + cidr);
  std::string addr = cidr.substr(0, slash), bits_text = cidr.substr(slash + 1);
  unsigned char buf[16];
  int len = 0;
  if (inet_pton(AF_INET, addr.c_str(), buf) == 1)
    len = 4;
  else if (inet_pton(AF_INET6, addr.c_str(), buf) == 1)
    len = 16;
  else
    fail(what, "invalid CIDR address: " + cidr);
  if (bits_text.empty() || bits_text.size() > 3 ||
      !std::all_of(bits_text.begin(), bits_text.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
      (bits_text.size() > 1 && bits_text[0] == '0'))
    fail(what, "invalid CIDR address: " + cidr);
  int bits = std::stoi(bits_text);
  if (bits > len * 8) fail(what, "invalid CIDR address: " + cidr);
  std::string out(reinterpret_cast<const char*>(buf), static_cast<size_t>(len));
  std::string mask(static_cast<size_t>(len), '\0');
  for (int i = 0; i < len; ++i) {
    int b = std::clamp(bits - i * 8, 0, 8);
    auto m = static_cast<unsigned char>(b == 0 ? 0 : (0xFF << (8 - b)) & 0xFF);
    mask[static_cast<size_t>(i)] = static_cast<char>(m);
    out[static_cast<size_t>(i)] = static_cast<char>(static_cast<unsigned char>(out[static_cast<size_t>(i)]) & m);
  }
  return out + mask;
}

// The CIDR text of an address-and-mask; a mask that is not a prefix is written as a second address.
std::string cidr_string(const ASN1_OCTET_STRING* s) {
  const unsigned char* d = ASN1_STRING_get0_data(s);
  int len = ASN1_STRING_length(s);
  if (len != 8 && len != 32) return "invalid:" + hex(d, static_cast<size_t>(std::max(len, 0)));
  int half = len / 2;
  char addr[INET6_ADDRSTRLEN] = {};
  if (!inet_ntop(half == 4 ? AF_INET : AF_INET6, d, addr, sizeof addr)) return "invalid:" + hex(d, static_cast<size_t>(len));
  int bits = 0;
  bool prefix = true, ended = false;
  for (int i = 0; i < half; ++i) {
    for (int b = 7; b >= 0; --b) {
      bool set = (d[half + i] >> b) & 1;
      if (set && ended) prefix = false;
      if (set && !ended) ++bits;
      if (!set) ended = true;
    }
  }
  if (prefix) return std::string(addr) + "/" + std::to_string(bits);
  char mask[INET6_ADDRSTRLEN] = {};
  inet_ntop(half == 4 ? AF_INET : AF_INET6, d + half, mask, sizeof mask);
  return std::string(addr) + "/" + mask;
}

using SubtreesPtr = STACK_OF(GENERAL_SUBTREE)*;

void add_subtree(SubtreesPtr& tree, GENERAL_NAME* gn, std::string_view what) {
  if (!tree) tree = sk_GENERAL_SUBTREE_new_null();
  GENERAL_SUBTREE* st = GENERAL_SUBTREE_new();
  if (!tree || !st || sk_GENERAL_SUBTREE_push(tree, st) == 0) {
    GENERAL_SUBTREE_free(st);
    GENERAL_NAME_free(gn);
    fail(what, "allocating nameConstraints");
  }
  GENERAL_NAME_free(st->base);
  st->base = gn;
}

GENERAL_NAME* ia5_name(int type, const std::string& value, std::string_view kind, std::string_view what) {
  if (value.empty()) fail(what, "empty nameConstraints " + std::string(kind));
  if (!is_ascii(value)) fail(what, "nameConstraints " + std::string(kind) + " \"" + value + "\" must be ASCII (IA5String)");
  ASN1_IA5STRING* s = ASN1_IA5STRING_new();
  GENERAL_NAME* gn = GENERAL_NAME_new();
  if (!s || !gn || ASN1_STRING_set(s, value.data(), static_cast<int>(value.size())) != 1) {
    ASN1_IA5STRING_free(s);
    GENERAL_NAME_free(gn);
    fail(what, "allocating nameConstraints");
  }
  GENERAL_NAME_set0_value(gn, type, s);
  return gn;
}

void add_subtrees(SubtreesPtr& tree, const NameConstraintSubtrees& t, std::string_view what) {
  // Go's order (crypto/x509 buildCertExtensions): IP ranges, DNS domains, emails, URI domains.
  for (const auto& cidr : t.ip_ranges) {
    ASN1_OCTET_STRING* s = octets(cidr_bytes(cidr, what));
    GENERAL_NAME* gn = GENERAL_NAME_new();
    if (!s || !gn) {
      ASN1_OCTET_STRING_free(s);
      GENERAL_NAME_free(gn);
      fail(what, "allocating nameConstraints");
    }
    GENERAL_NAME_set0_value(gn, GEN_IPADD, s);
    add_subtree(tree, gn, what);
  }
  for (const auto& v : t.dns_domains) add_subtree(tree, ia5_name(GEN_DNS, v, "DNS domain", what), what);
  for (const auto& v : t.email_addresses) add_subtree(tree, ia5_name(GEN_EMAIL, v, "email address", what), what);
  for (const auto& v : t.uri_domains) add_subtree(tree, ia5_name(GEN_URI, v, "URI domain", what), what);
}

NameConstraintSubtrees read_subtrees(const STACK_OF(GENERAL_SUBTREE) * tree) {
  NameConstraintSubtrees out;
  for (int i = 0; i < sk_GENERAL_SUBTREE_num(tree); ++i) {
    const GENERAL_NAME* gn = sk_GENERAL_SUBTREE_value(tree, i)->base;
    if (!gn) continue;
    switch (gn->type) {
      case GEN_DNS: out.dns_domains.push_back(asn1_bytes(gn->d.dNSName)); break;
      case GEN_EMAIL: out.email_addresses.push_back(asn1_bytes(gn->d.rfc822Name)); break;
      case GEN_URI: out.uri_domains.push_back(asn1_bytes(gn->d.uniformResourceIdentifier)); break;
      case GEN_IPADD: out.ip_ranges.push_back(cidr_string(gn->d.iPAddress)); break;
      default: break;
    }
  }
  return out;
}

std::string ip_string(const ASN1_OCTET_STRING* s) {
  char buf[INET6_ADDRSTRLEN] = {};
  const unsigned char* d = ASN1_STRING_get0_data(s);
  int len = ASN1_STRING_length(s);
  if (len == 4 && inet_ntop(AF_INET, d, buf, sizeof buf)) return buf;
  if (len == 16 && inet_ntop(AF_INET6, d, buf, sizeof buf)) return buf;
  return "invalid:" + hex(d, static_cast<size_t>(std::max(len, 0)));
}

// ---- usages -------------------------------------------------------------------------------

constexpr std::array<std::pair<ExtKeyUsage, int>, 12> kExtNids{{
    {ExtKeyUsage::Any, NID_anyExtendedKeyUsage},
    {ExtKeyUsage::ServerAuth, NID_server_auth},
    {ExtKeyUsage::ClientAuth, NID_client_auth},
    {ExtKeyUsage::CodeSigning, NID_code_sign},
    {ExtKeyUsage::EmailProtection, NID_email_protect},
    {ExtKeyUsage::IpsecEndSystem, NID_ipsecEndSystem},
    {ExtKeyUsage::IpsecTunnel, NID_ipsecTunnel},
    {ExtKeyUsage::IpsecUser, NID_ipsecUser},
    {ExtKeyUsage::Timestamping, NID_time_stamp},
    {ExtKeyUsage::OcspSigning, NID_OCSP_sign},
    {ExtKeyUsage::MicrosoftSgc, NID_ms_sgc},
    {ExtKeyUsage::NetscapeSgc, NID_ns_sgc},
}};

// Appends the DER of `value` as extension `nid`; 1 on success. The caller still owns `value`.
int append(ExtStackPtr& exts, int nid, void* value, bool critical) {
  STACK_OF(X509_EXTENSION)* s = exts.release();
  int rc = X509V3_add1_i2d(&s, nid, value, critical ? 1 : 0, X509V3_ADD_APPEND);
  exts.reset(s);
  return rc;
}

// X509V3_get_d2i returns null both when an extension is absent (crit == -1) and when it is
// malformed or repeated; only the first is fine.
template <class T>
T* get_ext(const STACK_OF(X509_EXTENSION) * exts, int nid, std::string_view what) {
  int crit = -1;
  void* v = X509V3_get_d2i(exts, nid, &crit, nullptr);
  if (!v && crit != -1)
    fail(what, std::string(crit == -2 ? "repeated " : "malformed ") + OBJ_nid2ln(nid) + " extension");
  return static_cast<T*>(v);
}

}  // namespace

NamePtr build_name(const Subject& s, std::string_view what) {
  NamePtr name(X509_NAME_new());
  if (!name) fail(what, "allocating name");
  // Go's pkix.Name.ToRDNSequence order, which is what cert-manager's certificates carry.
  for (const auto& v : s.countries) add_entry(name.get(), NID_countryName, v, what);
  for (const auto& v : s.provinces) add_entry(name.get(), NID_stateOrProvinceName, v, what);
  for (const auto& v : s.localities) add_entry(name.get(), NID_localityName, v, what);
  for (const auto& v : s.street_addresses) add_entry(name.get(), NID_streetAddress, v, what);
  for (const auto& v : s.postal_codes) add_entry(name.get(), NID_postalCode, v, what);
  for (const auto& v : s.organizations) add_entry(name.get(), NID_organizationName, v, what);
  for (const auto& v : s.organizational_units) add_entry(name.get(), NID_organizationalUnitName, v, what);
  add_entry(name.get(), NID_commonName, s.common_name, what);
  add_entry(name.get(), NID_serialNumber, s.serial_number, what);
  return name;
}

std::string canonical_cidr(const std::string& cidr, std::string_view what) {
  std::string bytes = cidr_bytes(cidr, what);
  ASN1_OCTET_STRING* s = octets(bytes);
  if (!s) fail(what, "allocating");
  std::string out = cidr_string(s);
  ASN1_OCTET_STRING_free(s);
  return out;
}

NamePtr build_sequence(const NameSequence& seq, std::string_view what) {
  NamePtr name(X509_NAME_new());
  if (!name) fail(what, "allocating name");
  for (const auto& rdn : seq) {
    bool first = true;
    for (const auto& a : rdn) {
      ObjectPtr obj(OBJ_txt2obj(a.oid.c_str(), 1));
      if (!obj) fail(what, "invalid attribute type \"" + a.oid + "\"");
      int nid = OBJ_obj2nid(obj.get());
      std::string label = nid != NID_undef ? OBJ_nid2sn(nid) : a.oid;
      // set 0 starts a new RDN, -1 adds to the last one (a multi-valued RDN).
      if (X509_NAME_add_entry_by_OBJ(name.get(), obj.get(), MBSTRING_UTF8, reinterpret_cast<const unsigned char*>(a.value.data()),
                                     static_cast<int>(a.value.size()), -1, first ? 0 : -1) != 1)
        fail(what, "attribute " + label + "=\"" + a.value + "\" cannot be encoded");
      first = false;
    }
  }
  return name;
}

NamePtr build_subject(const CertificateTemplate& t, std::string_view what) {
  return t.literal_subject.empty() ? build_name(t.subject, what) : build_sequence(t.literal_subject, what);
}

NameSequence read_sequence(const X509_NAME* name) {
  NameSequence out;
  int last_set = -1;
  int n = X509_NAME_entry_count(name);
  for (int i = 0; i < n; ++i) {
    const X509_NAME_ENTRY* e = X509_NAME_get_entry(name, i);
    int set = X509_NAME_ENTRY_set(e);
    if (out.empty() || set != last_set) out.emplace_back();
    last_set = set;
    out.back().push_back({oid_text(X509_NAME_ENTRY_get_object(e)), entry_value(e)});
  }
  return out;
}

Subject read_name(const X509_NAME* name) {
  Subject s;
  int n = X509_NAME_entry_count(name);
  for (int i = 0; i < n; ++i) {
    const X509_NAME_ENTRY* e = X509_NAME_get_entry(name, i);
    std::string v = entry_value(e);
    switch (OBJ_obj2nid(X509_NAME_ENTRY_get_object(e))) {
      case NID_commonName: s.common_name = v; break;  // the last one wins, as in Go
      case NID_serialNumber: s.serial_number = v; break;
      case NID_countryName: s.countries.push_back(v); break;
      case NID_stateOrProvinceName: s.provinces.push_back(v); break;
      case NID_localityName: s.localities.push_back(v); break;
      case NID_streetAddress: s.street_addresses.push_back(v); break;
      case NID_postalCode: s.postal_codes.push_back(v); break;
      case NID_organizationName: s.organizations.push_back(v); break;
      case NID_organizationalUnitName: s.organizational_units.push_back(v); break;
      default: break;
    }
  }
  return s;
}

std::string name_string(const X509_NAME* name) {
  BioPtr bio = write_bio(false);
  // RFC 2253 order and escaping, but UTF-8 kept as is instead of \UXXXX escapes.
  unsigned long flags = XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB;
  if (X509_NAME_print_ex(bio.get(), name, 0, flags) < 0) {
    ERR_clear_error();
    return {};
  }
  return bio_contents(bio.get());
}

ExtStackPtr build_extensions(const ExtensionSpec& spec, std::string_view what) {
  const CertificateTemplate& t = *spec.tmpl;
  STACK_OF(X509_EXTENSION)* raw = sk_X509_EXTENSION_new_null();
  if (!raw) fail(what, "allocating extensions");
  ExtStackPtr exts(raw);

  if (spec.usages && !spec.usages->key.empty()) {
    ASN1_BIT_STRING* bits = ASN1_BIT_STRING_new();
    bool ok = bits != nullptr;
    for (auto u : spec.usages->key) ok = ok && ASN1_BIT_STRING_set_bit(bits, static_cast<int>(u), 1) == 1;
    if (!ok) {
      ASN1_BIT_STRING_free(bits);
      fail(what, "encoding keyUsage");
    }
    int rc = append(exts, NID_key_usage, bits, true);
    ASN1_BIT_STRING_free(bits);
    if (rc != 1) fail(what, "encoding keyUsage");
  }

  if (spec.usages && !spec.usages->ext.empty()) {
    EXTENDED_KEY_USAGE* eku = sk_ASN1_OBJECT_new_null();
    bool ok = eku != nullptr;
    for (auto u : spec.usages->ext) {
      auto it = std::find_if(kExtNids.begin(), kExtNids.end(), [&](auto& p) { return p.first == u; });
      ok = ok && it != kExtNids.end() && sk_ASN1_OBJECT_push(eku, OBJ_nid2obj(it->second)) > 0;
    }
    if (!ok) {
      EXTENDED_KEY_USAGE_free(eku);
      fail(what, "encoding extendedKeyUsage");
    }
    int rc = append(exts, NID_ext_key_usage, eku, false);
    EXTENDED_KEY_USAGE_free(eku);
    if (rc != 1) fail(what, "encoding extendedKeyUsage");
  }

  if (spec.basic_constraints || t.is_ca) {
    BASIC_CONSTRAINTS* bc = BASIC_CONSTRAINTS_new();
    if (!bc) fail(what, "encoding basicConstraints");
    bc->ca = t.is_ca ? 0xFF : 0;
    int rc = append(exts, NID_basic_constraints, bc, true);
    BASIC_CONSTRAINTS_free(bc);
    if (rc != 1) fail(what, "encoding basicConstraints");
  }

  if (!spec.subject_key_id.empty()) {
    ASN1_OCTET_STRING* ski = octets(spec.subject_key_id);
    if (!ski) fail(what, "encoding subjectKeyIdentifier");
    int rc = append(exts, NID_subject_key_identifier, ski, false);
    ASN1_OCTET_STRING_free(ski);
    if (rc != 1) fail(what, "encoding subjectKeyIdentifier");
  }

  if (!spec.authority_key_id.empty()) {
    AUTHORITY_KEYID* aki = AUTHORITY_KEYID_new();
    if (aki) aki->keyid = octets(spec.authority_key_id);
    if (!aki || !aki->keyid) {
      AUTHORITY_KEYID_free(aki);
      fail(what, "encoding authorityKeyIdentifier");
    }
    int rc = append(exts, NID_authority_key_identifier, aki, false);
    AUTHORITY_KEYID_free(aki);
    if (rc != 1) fail(what, "encoding authorityKeyIdentifier");
  }

  GeneralNamesPtr names(GENERAL_NAMES_new());
  if (!names) fail(what, "allocating subjectAltName");
  // Go's order: DNS names, email addresses, IP addresses, URIs.
  for (const auto& v : t.dns_names) add_ia5(names.get(), GEN_DNS, v, "DNS name", what);
  for (const auto& v : t.email_addresses) {
    if (v.find('@') == std::string::npos) fail(what, "invalid email address \"" + v + "\"");
    add_ia5(names.get(), GEN_EMAIL, v, "email address", what);
  }
  for (const auto& v : t.ip_addresses) add_ip(names.get(), v, what);
  for (const auto& v : t.uris) {
    if (v.find(':') == std::string::npos) fail(what, "invalid URI \"" + v + "\" (no scheme)");
    add_ia5(names.get(), GEN_URI, v, "URI", what);
  }
  for (const auto& o : t.other_names) add_other_name(names.get(), o, what);
  if (sk_GENERAL_NAME_num(names.get()) > 0) {
    // RFC 5280 4.2.1.6: critical when the subject is empty.
    int rc = append(exts, NID_subject_alt_name, names.get(), spec.subject_empty);
    if (rc != 1) fail(what, "encoding subjectAltName");
  }

  if (t.name_constraints && (!t.name_constraints->permitted.empty() || !t.name_constraints->excluded.empty())) {
    std::unique_ptr<NAME_CONSTRAINTS, Deleter<NAME_CONSTRAINTS, NAME_CONSTRAINTS_free>> nc(NAME_CONSTRAINTS_new());
    if (!nc) fail(what, "allocating nameConstraints");
    add_subtrees(nc->permittedSubtrees, t.name_constraints->permitted, what);
    add_subtrees(nc->excludedSubtrees, t.name_constraints->excluded, what);
    if (append(exts, NID_name_constraints, nc.get(), t.name_constraints->critical) != 1) fail(what, "encoding nameConstraints");
  }
  return exts;
}

Extensions read_extensions(const STACK_OF(X509_EXTENSION) * exts, std::string_view what) {
  Extensions out;
  if (!exts) return out;

  if (GENERAL_NAMES* names = get_ext<GENERAL_NAMES>(exts, NID_subject_alt_name, what)) {
    GeneralNamesPtr owner(names);
    for (int i = 0; i < sk_GENERAL_NAME_num(names); ++i) {
      const GENERAL_NAME* gn = sk_GENERAL_NAME_value(names, i);
      switch (gn->type) {
        case GEN_DNS: out.sans.dns.push_back(asn1_bytes(gn->d.dNSName)); break;
        case GEN_EMAIL: out.sans.emails.push_back(asn1_bytes(gn->d.rfc822Name)); break;
        case GEN_URI: out.sans.uris.push_back(asn1_bytes(gn->d.uniformResourceIdentifier)); break;
        case GEN_IPADD: out.sans.ips.push_back(ip_string(gn->d.iPAddress)); break;
        case GEN_OTHERNAME: {
          const OTHERNAME* o = gn->d.otherName;
          if (o && o->value && o->value->type == V_ASN1_UTF8STRING)
            out.sans.other_names.push_back({oid_text(o->type_id), asn1_bytes(o->value->value.utf8string)});
          break;
        }
        default: break;
      }
    }
  }

  if (ASN1_BIT_STRING* bits = get_ext<ASN1_BIT_STRING>(exts, NID_key_usage, what)) {
    for (int b = 0; b <= static_cast<int>(KeyUsage::DecipherOnly); ++b)
      if (ASN1_BIT_STRING_get_bit(bits, b)) out.key_usages.push_back(static_cast<KeyUsage>(b));
    ASN1_BIT_STRING_free(bits);
  }

  if (EXTENDED_KEY_USAGE* eku = get_ext<EXTENDED_KEY_USAGE>(exts, NID_ext_key_usage, what)) {
    for (int i = 0; i < sk_ASN1_OBJECT_num(eku); ++i) {
      const ASN1_OBJECT* obj = sk_ASN1_OBJECT_value(eku, i);
      int nid = OBJ_obj2nid(obj);
      auto it = std::find_if(kExtNids.begin(), kExtNids.end(), [&](auto& p) { return p.second == nid; });
      if (it != kExtNids.end()) {
        if (std::find(out.ext_key_usages.begin(), out.ext_key_usages.end(), it->first) == out.ext_key_usages.end())
          out.ext_key_usages.push_back(it->first);
      } else {
        char buf[128];
        OBJ_obj2txt(buf, sizeof buf, obj, 1);
        out.unknown_ext_key_usages.emplace_back(buf);
      }
    }
    std::sort(out.ext_key_usages.begin(), out.ext_key_usages.end());
    EXTENDED_KEY_USAGE_free(eku);
  }

  if (BASIC_CONSTRAINTS* bc = get_ext<BASIC_CONSTRAINTS>(exts, NID_basic_constraints, what)) {
    out.is_ca = bc->ca != 0;
    BASIC_CONSTRAINTS_free(bc);
  }

  {
    int crit = -1;
    auto* nc = static_cast<NAME_CONSTRAINTS*>(X509V3_get_d2i(exts, NID_name_constraints, &crit, nullptr));
    if (!nc && crit != -1) fail(what, std::string(crit == -2 ? "repeated " : "malformed ") + "nameConstraints extension");
    if (nc) {
      NameConstraints c;
      c.critical = crit == 1;
      c.permitted = read_subtrees(nc->permittedSubtrees);
      c.excluded = read_subtrees(nc->excludedSubtrees);
      out.name_constraints = std::move(c);
      NAME_CONSTRAINTS_free(nc);
    }
  }

  if (ASN1_OCTET_STRING* ski = get_ext<ASN1_OCTET_STRING>(exts, NID_subject_key_identifier, what)) {
    out.subject_key_id = asn1_bytes(ski);
    ASN1_OCTET_STRING_free(ski);
  }

  if (AUTHORITY_KEYID* aki = get_ext<AUTHORITY_KEYID>(exts, NID_authority_key_identifier, what)) {
    out.authority_key_id = asn1_bytes(aki->keyid);
    AUTHORITY_KEYID_free(aki);
  }
  return out;
}

std::vector<std::string> usage_names_of(const Extensions& e) {
  return usage_names(Usages{e.key_usages, e.ext_key_usages});
}

}  // namespace capstan::pki::detail
