-- The operators' commands (`npm run waitlist`) now speak SQL to the database
-- itself, on Supabase through its connection string, and read the catalogs
-- and the Supabase CLI's migration history directly. The functions that
-- served them through the REST data service go.

drop function if exists public.waitlist_stats(integer);
drop function if exists public.waitlist_import(json);
drop function if exists public.waitlist_schema_check();
