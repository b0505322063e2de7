// People's seat tokens sealed at rest (web_seats.seat_token): whoever reads the
// database — a backup, a read replica, a leaked dump — must not be able to play
// a person's seat with what they read. A token is sealed with
// XChaCha20-Poly1305 (libsodium's crypto_aead_xchacha20poly1305_ietf) under the
// service's seat key, with a random nonce each time, and with the row it belongs
// to (identity, game, seat, host) as associated data: a sealed token copied to
// another row, or a row whose host was changed, does not open. The stored text
// is versioned, "xc1:" + base64(nonce || ciphertext), in the column the clear
// tokens were in, so the table needs no new column and a token stored in the
// clear before (a game host's tokens are hex: never "xc1:") is told apart.
#pragma once

#include <grpcpp/support/status.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace metropolis::accounts {

// The row a token is sealed for: its seal holds only there.
struct SeatPlace {
  int64_t identity_id = 0;
  std::string_view game_id;
  int seat = 0;
  std::string_view host;
};

class SeatSealer {
 public:
  // The key file (--seat-key-file) holds at least this many bytes; the key is
  // derived from all of them (keyed BLAKE2b-256), so 32 random bytes and 64 hex
  // digits of a secret store serve alike.
  static constexpr size_t kMinKeyMaterialBytes = 32;
  // How a sealed token's stored text starts (version 1: the layout above).
  static constexpr std::string_view kPrefix = "xc1:";

  // `key_material`: at least kMinKeyMaterialBytes (ReadSeatKeyFile's); throws
  // std::invalid_argument for less, std::runtime_error when libsodium cannot start.
  explicit SeatSealer(std::string_view key_material);
  ~SeatSealer();  // the key is wiped
  SeatSealer(const SeatSealer&) = delete;
  SeatSealer& operator=(const SeatSealer&) = delete;

  // The text to store for `token` in the row `place`: different every time.
  std::string Seal(std::string_view token, const SeatPlace& place) const;
  // The token sealed in `stored` for `place`. DATA_LOSS naming the row when
  // `stored` is not sealed text, or does not open: sealed under another key,
  // altered, or sealed for another row.
  grpc::Status Open(std::string_view stored, const SeatPlace& place, std::string* token) const;

  // Whether `stored` is sealed text (otherwise a token stored in the clear).
  static bool IsSealed(std::string_view stored) { return stored.substr(0, kPrefix.size()) == kPrefix; }

 private:
  unsigned char key_[32];
};

// Reads the key file of --seat-key-file. False with *error naming the file when
// it cannot be read or holds fewer than kMinKeyMaterialBytes bytes.
bool ReadSeatKeyFile(const std::string& path, std::string* key_material, std::string* error);

}  // namespace metropolis::accounts
