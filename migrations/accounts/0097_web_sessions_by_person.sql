-- The account page lists a person's sessions and ends them (People.ListSessions,
-- EndSession), and a new password ends all but one (ChangePassword): each reads
-- the person's rows, which the table's key (the cookie's hash) cannot find.
CREATE INDEX web_sessions_person ON web_sessions (identity_id, created_at);
