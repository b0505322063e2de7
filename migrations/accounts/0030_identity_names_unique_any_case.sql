-- Names are unique in any letter case: "Alice" cannot pass for "alice". Until now
-- the services checked it before inserting, which two concurrent sign-ups could
-- both pass; from here the database refuses the second (a unique index on the
-- lower-cased name, which replaces 0008's plain one).
--
-- Names that already differ only in case keep the oldest identity's name; each
-- later one is renamed to "<name>-<id>" (shortened to fit 64 characters) and the
-- rename recorded in identity_renames, so that the person or the bot's owner is
-- told at the next sign-in. Each rename is also reported as a NOTICE in the
-- migration's log.
CREATE TABLE identity_renames (
  identity_id BIGINT PRIMARY KEY REFERENCES identities (id),
  old_name    TEXT NOT NULL,
  new_name    TEXT NOT NULL,
  renamed_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
  told_at     TIMESTAMPTZ  -- NULL until the identity has been told
);

DO $$
DECLARE
  later RECORD;
  candidate TEXT;
  attempt INTEGER;
BEGIN
  FOR later IN
    SELECT i.id, i.name FROM identities i
    WHERE EXISTS (SELECT 1 FROM identities o WHERE lower(o.name) = lower(i.name) AND o.id < i.id)
    ORDER BY i.id
  LOOP
    attempt := 0;
    LOOP
      candidate := '-' || later.id || CASE WHEN attempt > 0 THEN '-' || attempt ELSE '' END;
      candidate := left(later.name, 64 - length(candidate)) || candidate;
      EXIT WHEN NOT EXISTS (SELECT 1 FROM identities WHERE lower(name) = lower(candidate));
      attempt := attempt + 1;
    END LOOP;
    UPDATE identities SET name = candidate WHERE id = later.id;
    INSERT INTO identity_renames (identity_id, old_name, new_name) VALUES (later.id, later.name, candidate);
    RAISE NOTICE 'identity % renamed from % to %: its name differed only in case from an older one',
      later.id, later.name, candidate;
  END LOOP;
END
$$;

DROP INDEX identities_lower_name;
CREATE UNIQUE INDEX identities_name_any_case ON identities (lower(name));
