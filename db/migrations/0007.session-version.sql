-- Server-side session invalidation (issue 15, finding 6): every session and remember cookie names
-- the account's session_version; logging out or deactivating the account increments it, so saved
-- cookies stop working (also after the account is reactivated).
ALTER TABLE account ADD COLUMN IF NOT EXISTS session_version integer NOT NULL DEFAULT 0;
