// Names of the objects made for a Certificate: one CertificateRequest per revision
// ("<certificate>-<revision>", cert-manager's StableCertificateRequestName) and one temporary
// private key Secret per revision ("<certificate>-<revision>-key"; deterministic, so a restart
// finds the key it made instead of orphaning it). Names that would exceed 253 characters are
// shortened with a hash of the full name.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace capstan::certificates {

std::string request_name(std::string_view certificate, std::int64_t revision);
std::string next_key_secret_name(std::string_view certificate, std::int64_t revision);
// base + suffix, shortened to `max` characters with an 8-hex-digit hash of the whole.
std::string bounded_name(std::string_view base, std::string_view suffix, std::size_t max = 253);

}  // namespace capstan::certificates
