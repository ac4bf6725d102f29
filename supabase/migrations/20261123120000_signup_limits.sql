-- Limits on new signups, kept by the database so that they hold for the
-- whole deployment (every server instance counts in the same place) and for
-- every way in (the site's action and a direct insert with the public key
-- alike):
--
-- * The ceiling: at most `signups_per_minute` new signups in any minute from
--   everyone together, 600 unless changed, 0 for none. The one statement that
--   changes it, at once and without a redeploy:
--     update waitlist_private.signup_limits set signups_per_minute = 1200;
-- * The allowance of one client, when the request names the client: the
--   site's server sends `x-waitlist-client` (a keyed hash of the visitor's
--   address, never the address) and `x-waitlist-allowance` (signups a
--   minute), which PostgREST hands to SQL in `request.headers`; the embedded
--   database sets the same. A request that names no client meets only the
--   ceiling. Whoever holds the public key can send any client and allowance,
--   and gains nothing by it that leaving them out would not give: every
--   request meets the ceiling.
--
-- Only what the public's roles (anon, authenticated) insert is limited: the
-- service role (the operators' import) and the table's owner never are. A
-- refusal raises SQLSTATE PT429, which PostgREST answers with HTTP 429, and
-- rolls back the insert; only signups that were admitted are counted.
--
-- A trigger rather than PostgREST's db_pre_request: the trigger meets every
-- insert into the table, whichever way it comes (the embedded database has no
-- PostgREST at all), and only inserts, where a pre-request function would run
-- for every request and need the data service's own configuration changed.

create schema waitlist_private;
comment on schema waitlist_private is
  'The signup limits: settings and counts nobody reaches with the public key.';

revoke all on schema waitlist_private from public;
-- The insert trigger calls admit_signup as the inserting role; that is all
-- anon and authenticated may do here. No table in the schema is granted.
grant usage on schema waitlist_private to anon, authenticated;

create table waitlist_private.signup_limits (
  only_row boolean primary key default true check (only_row),
  signups_per_minute integer not null default 600 check (signups_per_minute >= 0)
);
comment on table waitlist_private.signup_limits is
  'One row: the ceiling on new signups a minute from everyone together (0 for none).';
insert into waitlist_private.signup_limits default values;

-- The signups admitted in the last minute, one row each, with the client
-- that sent it when the request named one. Rows older than a minute are
-- deleted as new signups come, so the table holds at most a minute of
-- admitted signups (the ceiling's worth), however long the list grows.
create table waitlist_private.recent_signups (
  admitted_at timestamptz not null,
  client_key text
);
comment on table waitlist_private.recent_signups is
  'Signups admitted in the last minute, for the limits; nothing older is kept.';
create index recent_signups_admitted_at on waitlist_private.recent_signups (admitted_at);
create index recent_signups_client on waitlist_private.recent_signups (client_key, admitted_at)
  where client_key is not null;

revoke all on all tables in schema waitlist_private from public, anon, authenticated;

-- The time the limits count by: a function of its own, so that a test can
-- move time on without waiting for it.
create function waitlist_private.signup_clock()
returns timestamptz
language sql
volatile
set search_path = ''
as $$ select clock_timestamp() $$;

-- Admits one signup or raises PT429. Runs with its owner's rights, so the
-- inserting role needs no rights on the tables above.
--
-- Exact under concurrency: each admission holds a transaction-scoped
-- advisory lock from its count to its commit, so a second insert arriving
-- meanwhile waits, then counts with the first already in (in READ COMMITTED,
-- PostgreSQL's default and PostgREST's, every query of a volatile function
-- sees what committed before it started). Two inserts can never both take the
-- last place. The lock is the ceiling's own, for every signup; with the
-- ceiling off, only a client's own signups wait for each other.
create function waitlist_private.admit_signup(client_key text, allowance integer)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  ceiling integer := coalesce(
    (select l.signups_per_minute from waitlist_private.signup_limits l),
    600
  );
  now_at timestamptz;
  admitted integer;
begin
  if ceiling = 0 and client_key is null then
    return;
  end if;
  if ceiling > 0 then
    perform pg_advisory_xact_lock(hashtextextended('waitlist signup ceiling', 0));
  else
    perform pg_advisory_xact_lock(hashtextextended('waitlist signup client ' || client_key, 0));
  end if;

  now_at := waitlist_private.signup_clock();
  delete from waitlist_private.recent_signups r
   where r.admitted_at <= now_at - interval '1 minute';

  if client_key is not null then
    select count(*) into admitted
      from waitlist_private.recent_signups r
     where r.client_key = admit_signup.client_key
       and r.admitted_at > now_at - interval '1 minute';
    if admitted >= allowance then
      raise sqlstate 'PT429' using
        message = format('Too many signups from this client: at most %s a minute', allowance),
        detail = 'client_allowance',
        hint = 'Try again in a minute.';
    end if;
  end if;

  if ceiling > 0 then
    select count(*) into admitted
      from waitlist_private.recent_signups r
     where r.admitted_at > now_at - interval '1 minute';
    if admitted >= ceiling then
      raise sqlstate 'PT429' using
        message = format('Too many signups: at most %s a minute from everyone together', ceiling),
        detail = 'signup_ceiling',
        hint = 'Try again in a minute.';
    end if;
  end if;

  insert into waitlist_private.recent_signups (admitted_at, client_key)
  values (now_at, admit_signup.client_key);
end;
$$;

revoke all on function waitlist_private.admit_signup(text, integer) from public;
grant execute on function waitlist_private.admit_signup(text, integer) to anon, authenticated;

-- Security invoker, so `current_user` is the role that inserts. A trigger's
-- function needs no grant to fire.
create function waitlist_private.limit_signups()
returns trigger
language plpgsql
security invoker
set search_path = ''
as $$
declare
  -- '' rather than null once any earlier transaction of the session set it.
  headers json := nullif(current_setting('request.headers', true), '')::json;
  client_key text := headers ->> 'x-waitlist-client';
  allowance text := headers ->> 'x-waitlist-allowance';
begin
  if current_user not in ('anon', 'authenticated') then
    return new;
  end if;
  if client_key is not null
     and (client_key !~ '^[A-Za-z0-9_-]{16,128}$' or allowance is null or allowance !~ '^[1-9][0-9]{0,5}$') then
    raise exception using
      errcode = '22023',
      message = 'x-waitlist-client must be 16 to 128 characters of A-Z, a-z, 0-9, _ or -, '
        || 'sent with x-waitlist-allowance, a whole number of signups a minute from 1 to 999999';
  end if;
  perform waitlist_private.admit_signup(client_key, allowance::integer);
  return new;
end;
$$;

revoke all on function waitlist_private.limit_signups() from public;

-- Before the row is written, so a refused signup costs no write to the table.
create trigger limit_signups
  before insert on public.waitlist
  for each row execute function waitlist_private.limit_signups();

-- The ceiling in force, and nothing else, for anyone holding the public key:
-- the site's server reads it to say at start-up what protects it.
create function public.waitlist_signup_ceiling()
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select l.signups_per_minute from waitlist_private.signup_limits l), 600)
$$;

comment on function public.waitlist_signup_ceiling() is
  'New signups admitted a minute from everyone together (0: no ceiling).';

revoke all on function public.waitlist_signup_ceiling() from public, anon, authenticated;
grant execute on function public.waitlist_signup_ceiling() to anon, authenticated, service_role;
