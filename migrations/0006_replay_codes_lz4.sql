-- The stable action codes (8 bytes per action) are compressed by TOAST. pglz spent
-- more CPU than anything else in PostgreSQL when storing games; LZ4 compresses them
-- about as well at a fraction of the cost (PostgreSQL 14+, built with lz4 as
-- Debian's is). Rows already written keep their pglz form; both read the same.
ALTER TABLE replays ALTER COLUMN codes SET COMPRESSION lz4;
ALTER TABLE replays ALTER COLUMN compact SET COMPRESSION lz4;
