-- People create their own bots (People.CreatePersonBot, docs/ACCOUNTS.md,
-- "Self-service bots"): the bots a person owns are counted against a quota in
-- the transaction that creates one, so they are found by their owner.
CREATE INDEX identities_owner ON identities (owner_id) WHERE owner_id IS NOT NULL;
