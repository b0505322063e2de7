// People's seat tokens sealed at rest (seat_sealer.h): what a sealed text opens
// to, and every way one that must not open is refused: altered, under another
// key, or sealed for another row. The --seat-key-file setting (server.h): a
// process with a gateway token refuses to start without a key.
#include "services/accounts/seat_sealer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "lib/common/settings.h"
#include "services/accounts/server.h"

namespace metropolis::accounts {
namespace {

const std::string kKey(32, 'k');
const std::string kToken = "5f0c1e7a9b3d2c4e6f8091a2b3c4d5e6";  // a game host's: 16 random bytes in hex
const SeatPlace kPlace{.identity_id = 7, .game_id = "g-1", .seat = 2, .host = "10.0.0.5:50051"};

std::string Opened(const SeatSealer& sealer, const std::string& stored, const SeatPlace& place = kPlace) {
  std::string token;
  const grpc::Status s = sealer.Open(stored, place, &token);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return token;
}

// The one refusal of a sealed text that does not open, whatever the reason:
// a key, an alteration and a row cannot be told apart, and should not be.
void ExpectDoesNotOpen(const SeatSealer& sealer, const std::string& stored, const SeatPlace& place) {
  std::string token = "untouched";
  const grpc::Status s = sealer.Open(stored, place, &token);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::DATA_LOSS);
  EXPECT_EQ(s.error_message(), "the seat token stored for identity " + std::to_string(place.identity_id) +
                                   " in game '" + std::string(place.game_id) +
                                   "' does not open with this service's seat key: sealed under another key, "
                                   "altered, or sealed for another row");
  EXPECT_EQ(token, "untouched");
}

TEST(SeatSealer, SealsAndOpensWithoutTheTokenInTheStoredText) {
  const SeatSealer sealer(kKey);
  const std::string a = sealer.Seal(kToken, kPlace), b = sealer.Seal(kToken, kPlace);
  EXPECT_EQ(a.rfind("xc1:", 0), 0u) << a;
  EXPECT_TRUE(SeatSealer::IsSealed(a));
  EXPECT_FALSE(SeatSealer::IsSealed(kToken));
  EXPECT_EQ(a.find(kToken), std::string::npos) << a;
  EXPECT_NE(a, b);  // a random nonce each time: equal tokens do not show as equal rows
  EXPECT_EQ(Opened(sealer, a), kToken);
  EXPECT_EQ(Opened(sealer, b), kToken);
  // Any bytes, of any length.
  for (const std::string& token : {std::string(), std::string("\0\xff:xc1:", 7), std::string(4000, 'z')})
    EXPECT_EQ(Opened(sealer, sealer.Seal(token, kPlace)), token);
}

// What every replica needs: the same key file gives the same key.
TEST(SeatSealer, TheSameKeyMaterialOpensWhatAnotherSealerSealed) {
  const SeatSealer one(kKey), other(kKey);
  EXPECT_EQ(Opened(other, one.Seal(kToken, kPlace)), kToken);
}

// Stored rows outlive the code: a text sealed by version 1 (this one, made with
// kKey for kPlace) opens for as long as "xc1:" is read, whatever else changes.
TEST(SeatSealer, ATextSealedByVersionOneStillOpens) {
  const SeatSealer sealer(kKey);
  const std::string v1 =
      "xc1:Jr/D2eQnsQZ5AvpDdcTN46KBc0eFw1gnlRYPnpIpW9Zwti1ODI7lw1847JvWnkuBS6dffdkzC5cmFvizSLUvjoAUZbEWyfmZ";
  EXPECT_EQ(Opened(sealer, v1), kToken);
}

TEST(SeatSealer, AnAlteredTextIsRefused) {
  const SeatSealer sealer(kKey);
  const std::string stored = sealer.Seal(kToken, kPlace);
  // Each byte of the nonce, the ciphertext and the tag, altered in turn (a base64
  // digit stands for 6 bits: the last one's spare bits are not data, so it is left).
  for (size_t i = SeatSealer::kPrefix.size(); i + 1 < stored.size(); ++i) {
    if (stored[i] == '=') continue;
    std::string altered = stored;
    altered[i] = altered[i] == 'A' ? 'B' : 'A';
    ExpectDoesNotOpen(sealer, altered, kPlace);
  }
}

TEST(SeatSealer, ATextThatIsNotSealedTextIsRefusedSayingSo) {
  const SeatSealer sealer(kKey);
  const std::string stored = sealer.Seal(kToken, kPlace);
  const std::string row = "the seat token stored for identity 7 in game 'g-1' is not sealed text ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {kToken, "(no 'xc1:')"},
      {"xc1:not base64!", "(not base64)"},
      {"xc1:" + stored.substr(4, 20), "(15 bytes; a nonce and a tag take 40)"},
      {"xc1:", "(0 bytes; a nonce and a tag take 40)"},
      {"xc1:" + stored.substr(4, 40) + " " + stored.substr(44), "(not base64)"},
  };
  for (const auto& [text, why] : cases) {
    std::string token;
    const grpc::Status s = sealer.Open(text, kPlace, &token);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::DATA_LOSS) << text;
    EXPECT_EQ(s.error_message(), row + why) << text;
  }
}

TEST(SeatSealer, AnotherKeyIsRefused) {
  const SeatSealer sealer(kKey), other(std::string(32, 'K')), longer(kKey + "k");
  const std::string stored = sealer.Seal(kToken, kPlace);
  ExpectDoesNotOpen(other, stored, kPlace);
  ExpectDoesNotOpen(longer, stored, kPlace);  // every byte of the file is key
}

// A sealed token copied to another row (another person's, another game's, or
// its own row with another seat or another host to play it at) does not open.
TEST(SeatSealer, ATextSealedForAnotherRowIsRefused) {
  const SeatSealer sealer(kKey);
  const std::string stored = sealer.Seal(kToken, kPlace);
  SeatPlace person = kPlace, game = kPlace, seat = kPlace, host = kPlace;
  person.identity_id = 8;
  game.game_id = "g-2";
  seat.seat = 3;
  host.host = "attacker.example:50051";
  for (const SeatPlace& place : {person, game, seat, host}) ExpectDoesNotOpen(sealer, stored, place);
  // The fields are delimited: moving bytes from one to the next is another row too.
  const SeatPlace a{.identity_id = 7, .game_id = "g-1x", .seat = 2, .host = "y"};
  const SeatPlace b{.identity_id = 7, .game_id = "g-1", .seat = 2, .host = "xy"};
  ExpectDoesNotOpen(sealer, sealer.Seal(kToken, a), b);
}

TEST(SeatSealer, AKeyOfFewerThan32BytesIsRefused) {
  EXPECT_THROW(SeatSealer(std::string(31, 'k')), std::invalid_argument);
}

// ---- --seat-key-file -----------------------------------------------------------

class SeatKeySettingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("seat-key-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string File(const std::string& name, const std::string& bytes) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  // --seat-key-file's reading, with these arguments and `gateway_token`.
  bool Read(std::vector<std::string> args, const std::string& gateway_token, std::string* key, std::string* error) {
    services::Settings settings("metropolis-accounts", "test", "METROPOLIS_SEAT_KEY_TEST_");
    AddSeatKeySetting(&settings);
    args.insert(args.begin(), "metropolis-accounts");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    int exit_code = 0;
    EXPECT_TRUE(settings.Parse(int(argv.size()), argv.data(), &exit_code));
    return ReadSeatKeySetting(settings, gateway_token, key, error);
  }

  std::filesystem::path dir_;
};

TEST_F(SeatKeySettingTest, AGatewayTokenWithoutAKeyIsRefused) {
  std::string key, error;
  EXPECT_FALSE(Read({}, "gw-secret", &key, &error));
  EXPECT_EQ(error,
            "--seat-key-file (or METROPOLIS_SEAT_KEY_TEST_SEAT_KEY_FILE) is required with --gateway-token: the People "
            "service stores people's seat tokens encrypted with it");
  // Without a gateway token nobody may call People: no key, no seat kept.
  EXPECT_TRUE(Read({}, "", &key, &error)) << error;
  EXPECT_EQ(key, "");
}

TEST_F(SeatKeySettingTest, TheKeyFileIsReadWholeAndNeedsAtLeast32Bytes) {
  std::string key, error;
  const std::string raw(32, '\xa7');
  EXPECT_TRUE(Read({"--seat-key-file", File("raw.key", raw)}, "gw-secret", &key, &error)) << error;
  EXPECT_EQ(key, raw);
  const std::string hex = std::string(64, 'e') + "\n";
  EXPECT_TRUE(Read({"--seat-key-file", File("hex.key", hex)}, "gw-secret", &key, &error)) << error;
  EXPECT_EQ(key, hex);

  const std::string short_path = File("short.key", std::string(31, 'k'));
  EXPECT_FALSE(Read({"--seat-key-file", short_path}, "gw-secret", &key, &error));
  EXPECT_EQ(error, "--seat-key-file " + short_path +
                       ": 31 bytes; a key needs at least 32 (e.g. head -c 32 /dev/urandom > FILE)");
  const std::string missing = (dir_ / "none.key").string();
  EXPECT_FALSE(Read({"--seat-key-file", missing}, "", &key, &error));
  EXPECT_EQ(error, "--seat-key-file " + missing + ": cannot be read");
}

}  // namespace
}  // namespace metropolis::accounts
