-- Accounts: the identities that play (people and bots), who owns a bot, and the
-- API tokens they authenticate with. Tokens are stored only as SHA-256 hashes: a
-- leaked table reveals no usable token.
CREATE TABLE identities (
  id          BIGSERIAL PRIMARY KEY,
  kind        TEXT NOT NULL CHECK (kind IN ('player', 'bot')),
  name        TEXT NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 64),
  owner_id    BIGINT REFERENCES identities (id),  -- a bot's owner; NULL for players
  created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
  CHECK (kind = 'bot' OR owner_id IS NULL)
);

CREATE TABLE api_tokens (
  id           BIGSERIAL PRIMARY KEY,
  identity_id  BIGINT NOT NULL REFERENCES identities (id),
  token_sha256 BYTEA NOT NULL UNIQUE CHECK (length(token_sha256) = 32),
  label        TEXT NOT NULL DEFAULT '',
  is_admin     BOOLEAN NOT NULL DEFAULT false,
  created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
  revoked_at   TIMESTAMPTZ
);
CREATE INDEX api_tokens_identity ON api_tokens (identity_id);
