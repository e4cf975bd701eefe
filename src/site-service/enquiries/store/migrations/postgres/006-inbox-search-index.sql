-- compatible-from: 2
-- Additive (an extension and an index, when they can be had): earlier code runs on as before.
-- The inbox's search is `search_text LIKE '%word%'` for each word, newest first. A word that few
-- enquiries hold (an address, a rare term) otherwise reads the whole table: a trigram index
-- (pg_trgm, in PostgreSQL's contrib, which Debian's postgresql package ships) finds them directly;
-- the planner still walks the newest-first index for a word most enquiries hold, and stops at a
-- page. A database where the extension is missing or may not be created by this role (it is a
-- trusted extension: the database's owner may) keeps the scan, which gives the same answers: the
-- migration says so in a notice and is applied all the same, so that the service starts.
DO $$
DECLARE
  trgm_schema text;
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
  EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'pg_trgm could not be created (%): the inbox search reads the table for rare words', SQLERRM;
  END;
  SELECT n.nspname INTO trgm_schema FROM pg_extension x JOIN pg_namespace n ON n.oid = x.extnamespace
    WHERE x.extname = 'pg_trgm';
  IF trgm_schema IS NOT NULL THEN
    EXECUTE format('CREATE INDEX IF NOT EXISTS enquiry_work_search ON enquiry_work USING gin (search_text %I.gin_trgm_ops)', trgm_schema);
  END IF;
END
$$;
