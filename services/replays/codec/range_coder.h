// A byte-oriented range coder (the carry-propagating kind of LZMA's rc), with
// integer state only, so that any build on any platform writes and reads the
// same bytes.
//
// A symbol is coded as its slot [cum, cum + freq) of a table whose frequencies
// sum to `total`. The coder keeps a 32-bit range that is renormalised to at
// least 2^24, so totals up to kMaxTotal = 2^16 keep every symbol at least 2^8
// units wide; the cost of a symbol is log2(total / freq) bits plus less than
// total / 2^24 of rounding (a symbol with freq == total costs nothing).
//
// The decoder reads exactly the bytes the encoder wrote: 4 when it starts,
// then one per renormalisation, the same sequence as the encoder's. So a
// truncated stream is always detected (the decoder asks for a byte that is not
// there), and trailing garbage too (AtEnd() is false after the last symbol);
// the closing bytes also check the whole stream (EndsWhereTheEncoderEnded).
// LZMA's always-zero first byte is not written.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace metropolis::replays {

inline constexpr uint32_t kMaxTotal = uint32_t(1) << 16;

class RangeEncoder {
 public:
  // Appends to *out.
  explicit RangeEncoder(std::string* out) : out_(out) {}

  // Requires 0 < freq, cum + freq <= total <= kMaxTotal.
  void Encode(uint32_t cum, uint32_t freq, uint32_t total);
  // Writes the final 4 bytes; the encoder is not used after this.
  void Finish();

 private:
  void ShiftLow();
  void Put(uint8_t byte);

  std::string* out_;
  uint64_t low_ = 0;  // 32 bits and a carry
  uint32_t range_ = 0xFFFFFFFFu;
  uint8_t cache_ = 0;        // the last byte not yet written: a carry may still reach it
  uint64_t cache_size_ = 1;  // cache_ plus the 0xFF bytes behind it that a carry would flip
  bool first_byte_ = true;   // always 0, not written
};

class RangeDecoder {
 public:
  explicit RangeDecoder(std::string_view in) : in_(in) {}

  // Reads the first 4 bytes; false if the stream is shorter.
  bool Start();
  // The position of the next symbol in [0, total). False if the stream cannot
  // come from the encoder (the value falls in the unused top of the range).
  bool Target(uint32_t total, uint32_t* target);
  // Consumes the symbol whose slot holds the last Target(); false when the
  // stream ends before the bytes this needs (truncated).
  bool Consume(uint32_t cum, uint32_t freq);
  // True when every byte has been read.
  bool AtEnd() const { return pos_ == in_.size(); }
  // After the last symbol of an encoder's stream: its closing bytes are the
  // final low end of the range exactly, so the decoder's offset in the range
  // is 0. A corrupt stream ends elsewhere with odds of about 2^-32 against
  // it — a free checksum.
  bool EndsWhereTheEncoderEnded() const { return code_ == 0; }

 private:
  std::string_view in_;
  size_t pos_ = 0;
  uint32_t code_ = 0;  // < range_ after each Consume (a corrupt start is caught by Target)
  uint32_t range_ = 0xFFFFFFFFu;
  uint32_t step_ = 0;  // range_ / total of the current symbol
};

}  // namespace metropolis::replays
