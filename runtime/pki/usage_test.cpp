#include "runtime/pki/usage.h"

#include <gtest/gtest.h>

#include "runtime/pki/error.h"

namespace capstan::pki {
namespace {

TEST(PkiUsage, ParsesEveryCertManagerName) {
  const std::vector<std::string> all = {
      "signing",       "digital signature", "content commitment", "key encipherment", "key agreement",
      "data encipherment", "cert sign",     "crl sign",           "encipher only",    "decipher only",
      "any",           "server auth",       "client auth",        "code signing",     "email protection",
      "s/mime",        "ipsec end system",  "ipsec tunnel",       "ipsec user",       "timestamping",
      "ocsp signing",  "microsoft sgc",     "netscape sgc"};
  ASSERT_EQ(all.size(), 23u);
  Usages u = parse_usages(all);
  EXPECT_EQ(u.key.size(), 9u);   // "signing" is "digital signature"
  EXPECT_EQ(u.ext.size(), 12u);  // "s/mime" is "email protection"
  EXPECT_TRUE(u.has(KeyUsage::DecipherOnly));
  EXPECT_TRUE(u.has(ExtKeyUsage::NetscapeSgc));
  for (const auto& name : all) EXPECT_NO_THROW(parse_usages({name})) << name;
}

TEST(PkiUsage, UnknownNameIsNamedInTheError) {
  try {
    parse_usages({"server auth", "serverAuth"});
    FAIL() << "expected PkiError";
  } catch (const PkiError& e) {
    EXPECT_STREQ(e.what(), "unknown key usage \"serverAuth\"");
  }
}

TEST(PkiUsage, DefaultsAndCaAddsCertSign) {
  EXPECT_EQ(usage_names(effective_usages({}, false)),
            (std::vector<std::string>{"digital signature", "key encipherment"}));
  EXPECT_EQ(usage_names(effective_usages({}, true)),
            (std::vector<std::string>{"digital signature", "key encipherment", "cert sign"}));
  EXPECT_EQ(usage_names(effective_usages({"server auth"}, true)),
            (std::vector<std::string>{"cert sign", "server auth"}));
}

TEST(PkiUsage, CanonicalNamesSortAndDeduplicate) {
  EXPECT_EQ(usage_names(parse_usages({"client auth", "signing", "s/mime", "digital signature", "server auth"})),
            (std::vector<std::string>{"digital signature", "server auth", "client auth", "email protection"}));
  EXPECT_EQ(usage_name(KeyUsage::DigitalSignature), "digital signature");
  EXPECT_EQ(usage_name(ExtKeyUsage::EmailProtection), "email protection");
}

}  // namespace
}  // namespace capstan::pki
