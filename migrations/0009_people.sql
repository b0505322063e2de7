-- People who play in the browser (services/gateway, docs/GATEWAY.md "People and
-- play"): a person is a player identity with a password; sessions and the game
-- seats the gateway holds for them are kept here, so that any gateway serves any
-- person and a restart signs nobody out.

-- libsodium's crypto_pwhash_str: argon2id with its salt and cost in the string.
CREATE TABLE player_passwords (
  identity_id   BIGINT PRIMARY KEY REFERENCES identities (id),
  password_hash TEXT NOT NULL,
  created_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Only the SHA-256 of the session cookie: a copy of the table signs nobody in.
-- A session lasts until expires_at (fixed, not sliding) or until signed out.
CREATE TABLE web_sessions (
  token_sha256 BYTEA PRIMARY KEY CHECK (length(token_sha256) = 32),
  identity_id  BIGINT NOT NULL REFERENCES identities (id),
  created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
  expires_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX web_sessions_expires ON web_sessions (expires_at);

-- The seats the gateway plays for a person (practice games, ladder games it
-- queued them for). The seat token is what GameHost.Play needs; it is never
-- sent to the browser.
CREATE TABLE web_seats (
  identity_id BIGINT NOT NULL REFERENCES identities (id),
  game_id     TEXT NOT NULL,
  seat        INTEGER NOT NULL,
  host        TEXT NOT NULL,
  seat_token  TEXT NOT NULL,
  created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
  finished_at TIMESTAMPTZ,
  PRIMARY KEY (identity_id, game_id)
);
CREATE INDEX web_seats_open ON web_seats (identity_id, created_at) WHERE finished_at IS NULL;
