#include "tools/engine/table.h"

#include <algorithm>
#include <cstdio>

namespace metropolis::cli {
namespace {

// Digits with a sign, a point, a percent or FormatRate's k/M/G suffix.
bool LooksNumeric(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == '%' || c == 'k' || c == 'M' || c == 'G'))
      return false;
  return true;
}

}  // namespace

std::string Table::ToString() const {
  size_t ncols = header_.size();
  for (const auto& r : rows_) ncols = std::max(ncols, r.size());
  std::vector<size_t> width(ncols, 0);
  std::vector<bool> numeric(ncols, true);
  std::vector<bool> any(ncols, false);
  for (size_t c = 0; c < header_.size(); ++c) width[c] = header_[c].size();
  for (const auto& r : rows_) {
    for (size_t c = 0; c < r.size(); ++c) {
      width[c] = std::max(width[c], r[c].size());
      if (r[c].empty()) continue;
      any[c] = true;
      if (!LooksNumeric(r[c])) numeric[c] = false;
    }
  }
  auto line = [&](const std::vector<std::string>& r) {
    std::string out;
    for (size_t c = 0; c < ncols; ++c) {
      const std::string cell = c < r.size() ? r[c] : "";
      std::string pad(width[c] - cell.size(), ' ');
      if (c) out += "  ";
      out += numeric[c] && any[c] && c > 0 ? pad + cell : cell + pad;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::string out = line(header_);
  size_t total = 0;
  for (size_t c = 0; c < ncols; ++c) total += width[c] + (c ? 2 : 0);
  out += std::string(total, '-') + "\n";
  for (const auto& r : rows_) out += line(r);
  return out;
}

std::string FormatFixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string FormatRate(double per_second) {
  if (per_second >= 1e9) return FormatFixed(per_second / 1e9, 2) + "G";
  if (per_second >= 1e6) return FormatFixed(per_second / 1e6, 2) + "M";
  if (per_second >= 1e4) return FormatFixed(per_second / 1e3, 1) + "k";
  return FormatFixed(per_second, 0);
}

}  // namespace metropolis::cli
