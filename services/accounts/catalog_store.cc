#include "services/accounts/catalog_store.h"

#include <algorithm>
#include <cctype>

namespace metropolis::accounts {

std::vector<std::string> NameSearchSpellings(std::string_view prefix) {
  std::vector<std::string> out = {std::string(prefix)};
  std::string lower(prefix);
  for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
  std::string capital = lower;
  if (!capital.empty()) capital[0] = char(std::toupper(static_cast<unsigned char>(capital[0])));
  for (const std::string& s : {lower, capital})
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  return out;
}

}  // namespace metropolis::accounts
