-- What `npm run waitlist -- check` asks of the database, with the service
-- key: the migrations the Supabase CLI records as applied, whether the signup
-- limits are in place, and the ceiling in force. The CLI's record
-- (supabase_migrations.schema_migrations) and the limits' settings
-- (waitlist_private) live in schemas the data service does not expose, so the
-- function reads them with its owner's rights (security definer), and only the
-- service role may call it. It reads nothing of the list itself.
--
-- It replaces public.waitlist_signup_ceiling(), which told anyone holding the
-- public key the ceiling so that each server could log it as it started: the
-- site now asks the data service for nothing but the insert of a signup, and
-- the operator asks here, with the operator's key.

create function public.waitlist_schema_check()
returns json
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  applied text[];
  limits_in_place boolean;
  ceiling integer;
begin
  -- Left null where the CLI keeps no record: files run by hand in the SQL
  -- editor are not recorded.
  if to_regclass('supabase_migrations.schema_migrations') is not null then
    select coalesce(array_agg(m.version order by m.version), '{}')
      into applied
      from supabase_migrations.schema_migrations m;
  end if;

  -- In place: the settings exist, and the trigger that applies them fires
  -- (enabled, or always; not disabled, nor only for replication).
  limits_in_place := to_regclass('waitlist_private.signup_limits') is not null
    and exists (
      select 1
        from pg_catalog.pg_trigger t
       where t.tgrelid = to_regclass('public.waitlist')
         and t.tgname = 'limit_signups'
         and t.tgenabled in ('O', 'A')
    );
  if limits_in_place then
    -- As waitlist_private.admit_signup reads it: 600 when the row is gone.
    select coalesce((select l.signups_per_minute from waitlist_private.signup_limits l), 600)
      into ceiling;
  end if;

  return json_build_object(
    'applied_migrations', applied,
    'signup_limits', limits_in_place,
    'signups_per_minute', ceiling
  );
end;
$$;

comment on function public.waitlist_schema_check() is
  'For the operators: the migrations recorded as applied, whether the signup limits are in place, and the ceiling in force (0: none).';

revoke all on function public.waitlist_schema_check() from public, anon, authenticated;
grant execute on function public.waitlist_schema_check() to service_role;

-- If exists: a project may have had the files run by hand, this one before
-- the signup limits.
drop function if exists public.waitlist_signup_ceiling();
