// Plain-text tables with aligned columns: numbers right-aligned, text left.
#pragma once

#include <string>
#include <vector>

namespace metropolis::cli {

class Table {
 public:
  explicit Table(std::vector<std::string> header) : header_(std::move(header)) {}
  void AddRow(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  // Columns separated by two spaces, a dashed rule under the header.
  std::string ToString() const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

// Fixed-point formatting: "12.35".
std::string FormatFixed(double v, int decimals);
// A rate per second with a suffix: "812", "12.3k", "4.56M".
std::string FormatRate(double per_second);

}  // namespace metropolis::cli
