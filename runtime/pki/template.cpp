#include "runtime/pki/template.h"

namespace capstan::pki {

bool Subject::empty() const {
  return common_name.empty() && organizations.empty() && organizational_units.empty() && countries.empty() &&
         localities.empty() && provinces.empty() && street_addresses.empty() && postal_codes.empty() &&
         serial_number.empty();
}

}  // namespace capstan::pki
