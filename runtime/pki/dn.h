// RFC 4514 distinguished names (cert-manager's spec.literalSubject) and dotted-decimal object
// identifiers (spec.otherNames[].oid).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "runtime/pki/template.h"

namespace capstan::pki {

// Bounds of parse_distinguished_name's input (cert-manager has none).
inline constexpr std::size_t kMaxDistinguishedNameBytes = 4096;
inline constexpr std::size_t kMaxDistinguishedNameAttributes = 64;
inline constexpr std::size_t kMaxObjectIdentifierBytes = 256;

// Parses an RFC 4514 string into ASN.1 order. The string lists RDNs most specific first, so
// "CN=app,O=Acme\, Inc.,C=DE" gives C=DE, O="Acme, Inc.", CN=app (as cert-manager's
// ParseSubjectStringToRawDERBytes, which reverses go-ldap's parse). Attribute types are the
// keywords CN, C, O, OU, L, ST, STREET, POSTALCODE, SERIALNUMBER, DC, UID (any case) or dotted
// OIDs ("1.2.840.113549.1.9.1=a@b.c"); RDNs are separated by ',' (or ';'), attributes of a
// multi-valued RDN by '+'. Values may escape a special character (\, \+ \" \\ ...) or a byte in
// hex (\2C); unescaped leading and trailing spaces are dropped. Throws PkiError, without prefix,
// naming the byte offset and the problem: empty input, more than kMaxDistinguishedNameBytes bytes
// or kMaxDistinguishedNameAttributes attributes, a missing '=', an unknown type, an empty value,
// a bad escape, invalid UTF-8 or NUL, a '#'-encoded (BER) value (not supported).
NameSequence parse_distinguished_name(std::string_view dn);

// Whether `oid` is a dotted-decimal object identifier: at least two arcs, decimal without
// leading zeros, the first 0, 1 or 2, the second below 40 when the first is 0 or 1, every arc
// below 2^63, at most kMaxObjectIdentifierBytes long.
bool is_object_identifier(std::string_view oid);

// The DER Name for `name` as certificates and CSRs carry it (values as OpenSSL encodes them for
// each type: PrintableString for C, IA5String for DC and emailAddress, UTF8String otherwise).
// Throws PkiError when an attribute's value cannot be encoded (a C that is not two letters, ...).
std::string encode_name(const NameSequence& name);

// A CIDR as nameConstraints carry it and Certificate::name_constraints() reads it back: host
// bits cleared as Go's net.ParseCIDR does ("10.1.2.3/8" -> "10.0.0.0/8", IPv6 compressed).
// Throws PkiError ("invalid CIDR address: ...").
std::string canonical_cidr(const std::string& cidr);

// An RFC 4514 string for `name` (most specific RDN first, types as keywords where there is one).
std::string format_distinguished_name(const NameSequence& name);

}  // namespace capstan::pki
