-- Names are looked up in any letter case (the gateway's player pages and search,
-- the accounts' check that "Alice" cannot pass for "alice"): without this index
-- every such lookup read the whole table.
CREATE INDEX identities_lower_name ON identities (lower(name));
