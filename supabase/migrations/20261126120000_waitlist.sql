-- The early-access waitlist: the table the landing page's signups go to, and
-- the rules every way in meets. The site inserts with the public key, which
-- anyone can copy from a browser, so the database keeps every rule: of the
-- public roles, only anon may insert, and every insert by a role but the
-- tables' owner (the operator's commands) meets one trigger, admit_signup.
-- Each function searches pg_catalog first and pg_temp last, so that no type a
-- caller makes in pg_temp is used in it.

create table public.waitlist (
  id bigint generated always as identity primary key,
  email text not null,
  source text not null,
  created_at timestamptz not null default now(),
  -- Lower-case, at most 254 characters, and an address by the HTML standard's
  -- rule, as `<input type="email">` has it.
  constraint waitlist_email_format check (
    char_length(email) <= 254
    and email = lower(email)
    and email ~ '^[a-z0-9.!#$%&''*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$'
  ),
  constraint waitlist_source_known check (source in ('hero_section', 'cta_section'))
);
comment on table public.waitlist is 'Early-access signups from the landing page.';
comment on column public.waitlist.source is 'Which form the visitor used: hero_section or cta_section.';

-- One row per person; the operator's `remove` finds an address by it in any case.
create unique index waitlist_email_lower_key on public.waitlist (lower(email));

-- Supabase grants every new table and sequence in public to anon,
-- authenticated and service_role. Take it all back: anon may insert an
-- address and its source (id and created_at stay the table's; an identity
-- needs no grant on its sequence), and nobody uses the service role here.
revoke all on table public.waitlist from anon, authenticated, service_role;
revoke all on sequence public.waitlist_id_seq from anon, authenticated, service_role;
grant insert (email, source) on table public.waitlist to anon;

-- No select, update or delete policy: with the public key nobody can read,
-- count, change or remove an address.
alter table public.waitlist enable row level security;
-- The insert policy's check: a visitor's row is dated by the database, now.
create policy "Visitors can join the waitlist" on public.waitlist
  for insert to anon with check (created_at = now());

-- What the trigger keeps. No role but the owner has any right here, whatever
-- schemas the data service is told to expose; each table's row-level
-- security, with a policy that admits no row, says so again. No function the
-- owner makes is executable by PUBLIC, now or later (a trigger's function
-- needs none to fire): PostgreSQL grants that by default in every schema.
create schema waitlist_private;
comment on schema waitlist_private is
  'The signup limits, the signing secrets and the erasure marks: the owner''s alone.';
alter default privileges revoke execute on functions from public;

-- The ceiling: at most `signups_per_minute` new signups a minute from
-- everyone together, 600 unless changed; 0 closes signups, null sets no
-- ceiling. Changed at once, without a redeploy:
--   update waitlist_private.signup_limits set signups_per_minute = 1200;
create table waitlist_private.signup_limits (
  only_row boolean primary key default true check (only_row),
  signups_per_minute integer default 600 check (signups_per_minute >= 0)
);
insert into waitlist_private.signup_limits default values;

-- The signups admitted in each minute of the clock, one row per counter and
-- minute: '' for everyone together (the ceiling), 'lane' for the trusted
-- clients admitted over a full ceiling, else the client's key. A limit reads
-- this minute's row and the one before, weighted by the part of it still
-- inside the last 60 seconds: so at most the limit in a clock minute, and up
-- to twice it in 60 seconds across two (a burst late in each). Each signup
-- deletes two rows older than that: the table holds about two minutes' rows.
create table waitlist_private.signup_counts (
  minute timestamptz not null,
  counted_for text not null,
  admitted integer not null,
  primary key (minute, counted_for)
);

create table waitlist_private.secrets (
  only_row boolean primary key default true check (only_row),
  -- What the site signs with; null until the operator sets one, and until
  -- then every insert is refused.
  signing_secret text check (char_length(signing_secret) >= 32),
  -- The secret `signing-secret --set` replaced, still accepted until
  -- `--retire-previous`, so that servers still signing with it are not refused.
  previous_signing_secret text check (char_length(previous_signing_secret) >= 32),
  -- When each last signed a signup, to the minute: recorded when over a
  -- minute old, so not a write per signup.
  signed_at timestamptz,
  previous_signed_at timestamptz,
  -- When `--set` replaced the previous one: `--retire-previous` waits on it.
  replaced_at timestamptz,
  -- Keys the erasure marks' hashes; only a backup --with-erasures holds it too.
  erasure_key bytea not null default extensions.gen_random_bytes(32)
);
insert into waitlist_private.secrets default values;

-- Addresses erased on request (`npm run waitlist -- remove`), as keyed
-- hashes, never the address. A signup of an erased address is answered as
-- one of an address never seen: the first is held back (not stored, answered
-- as stored), every later one refused as a duplicate, so the page tells
-- nobody who asked to leave. An import skips them too; only the operator
-- restores one (`import --restore`).
create table waitlist_private.erasures (
  email_hash text primary key,
  -- The latest erasure: `remove` of an address already marked moves it on.
  erased_at timestamptz not null default now(),
  -- When a signup of it was held back: since erased_at, later ones are refused.
  held_back_at timestamptz
);

do $$
declare
  private text;
begin
  foreach private in array array['signup_limits', 'signup_counts', 'secrets', 'erasures'] loop
    execute format('alter table waitlist_private.%I enable row level security', private);
    execute format('create policy "The owner''s alone" on waitlist_private.%I using (false)', private);
  end loop;
end
$$;

-- The time the limits count by: a function of its own, so that a test can
-- move time on without waiting for it.
create function waitlist_private.signup_clock()
returns timestamptz
language sql
set search_path = pg_catalog, pg_temp
as $$ select clock_timestamp() $$;

-- An address's erasure mark: its keyed hash.
create function waitlist_private.email_hash(email text)
returns text
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select encode(extensions.hmac(convert_to(lower(trim(email)), 'UTF8'), s.erasure_key, 'sha256'), 'hex')
    from waitlist_private.secrets s
$$;

-- The signups `counted_for` made in the 60 seconds before `at`, as estimated
-- from two minutes' counts: this minute's, and the last one's weighted by
-- the part of it still inside those 60 seconds.
create function waitlist_private.recent_signups(counted_for text, at timestamptz)
returns numeric
language sql
stable
set search_path = pg_catalog, pg_temp
as $$
  select coalesce(sum(c.admitted * case when c.minute = m.this then 1
                                        else 1 - extract(epoch from at - m.this) / 60 end), 0)
    from (select date_trunc('minute', at, 'UTC') as this) m
    join waitlist_private.signup_counts c
      on c.minute in (m.this, m.this - interval '1 minute') and c.counted_for = recent_signups.counted_for
$$;

-- Counts one more signup for `counted_for` unless `most` are counted in the
-- last 60 seconds already; returns the count with it, or null when full. The
-- row's lock, held until the signup commits or fails, makes a second signup
-- for the same counter wait and then see the first's: two never both take
-- the last place. A signup that fails is not counted.
create function waitlist_private.count_signup(counted_for text, at timestamptz, most integer)
returns numeric
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
declare
  this_minute timestamptz := date_trunc('minute', at, 'UTC');
  earlier numeric := (1 - extract(epoch from at - this_minute) / 60) * coalesce((
    select c.admitted from waitlist_private.signup_counts c
     where c.minute = this_minute - interval '1 minute' and c.counted_for = count_signup.counted_for), 0);
  now_counted integer;
begin
  if earlier >= most then
    return null;
  end if;
  insert into waitlist_private.signup_counts as c (minute, counted_for, admitted)
  values (this_minute, count_signup.counted_for, 1)
  on conflict on constraint signup_counts_pkey do update
     set admitted = c.admitted + 1
   where c.admitted + earlier < most
  returning c.admitted into now_counted;
  return now_counted + earlier;
end;
$$;

-- The refusal over a full ceiling, or a closed one.
create function waitlist_private.over_ceiling(ceiling integer)
returns void
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  if ceiling = 0 then
    raise sqlstate 'PT429' using
      message = 'Signups are closed: the ceiling is 0 a minute.',
      detail = 'signup_ceiling',
      hint = 'Try again later.';
  end if;
  raise sqlstate 'PT429' using
    message = format('Too many signups: at most %s a minute from everyone together', ceiling),
    detail = 'signup_ceiling',
    hint = 'Try again in a minute.';
end;
$$;

-- A signup and an erasure each wait for the other (below), then must see
-- what it committed: each statement sees that at read committed alone.
create function waitlist_private.at_read_committed()
returns void
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
begin
  if current_setting('transaction_isolation') <> 'read committed' then
    raise exception using
      errcode = '25000',
      message = 'The waitlist changes at read committed only, so that no signup and erasure miss each other.';
  end if;
end;
$$;

-- `remove`: the address goes; its mark stays, with no signup held back since.
-- The table's lock waits out the signups under way, and holds the next ones
-- until this commits. True when the address was listed.
create function waitlist_private.erase(email text)
returns boolean
language plpgsql
set search_path = pg_catalog, pg_temp
as $$
declare
  mark text := waitlist_private.email_hash(email);
begin
  perform waitlist_private.at_read_committed();
  lock table public.waitlist in share row exclusive mode;
  insert into waitlist_private.erasures (email_hash, erased_at) values (mark, clock_timestamp())
  on conflict (email_hash) do update set erased_at = excluded.erased_at;
  delete from public.waitlist w where lower(w.email) = lower(erase.email);
  return found;
end;
$$;

-- The trigger on each insert from any role but the owner, refusing as cheaply
-- as it can: the headers' shape, the signature, the limits; an erased address
-- is answered for last, so that it meets the limits like any other. A trigger
-- rather than PostgREST's db_pre_request: it meets every insert, whichever
-- way it comes (the embedded database has no PostgREST). A statement of many
-- rows is one address many times, as the signature covers it, and an
-- address's second signup is refused, listed or held back: so the statement
-- is, and nothing it counted stays.
--
-- The site's server sends, with its one insert (PostgREST hands the headers
-- to SQL in `request.headers`; the embedded database sets the same):
-- * x-waitlist-client, a keyed hash of the visitor's network address (never
--   the address), and x-waitlist-allowance, the signups a minute that client
--   may make. A request that names no client meets only the ceiling.
-- * x-waitlist-signature, `<unix time>.<trusted>.<hex HMAC-SHA-256>`, the HMAC
--   over the time, the trusted flag (1: the server could trust the client's
--   address), the client, the allowance, the address and the source, one a
--   line. An insert not signed by the signing secret (or by the one it
--   replaced, while that is accepted) between 60 seconds ago and 30 seconds
--   ahead is refused: a row straight from someone holding the public key,
--   forged or altered headers alike. With no secret set, every one is.
--
-- A trusted client's first signup in 60 seconds is admitted even over a full
-- ceiling, so no flood shuts a real visitor out, up to the ceiling again: a
-- flood stores at most twice the ceiling in a clock minute, and four times it
-- in 60 seconds across two. A refusal over a limit raises PT429 (PostgREST
-- answers 429). Each signup takes a few index lookups, however busy the
-- minute: a full ceiling is seen by a plain read, and only the signups that
-- take a place under it wait for each other.
create function waitlist_private.admit_signup()
returns trigger
language plpgsql
security definer
set search_path = pg_catalog, pg_temp
-- Each signup plans its statements for the tables as they are: a plan kept
-- from when a table was empty would read all of it once it is not.
set plan_cache_mode = force_custom_plan
as $$
declare
  -- '' rather than null once an earlier transaction of the session set it.
  headers json := nullif(current_setting('request.headers', true), '')::json;
  client_key text := headers ->> 'x-waitlist-client';
  allowance text := headers ->> 'x-waitlist-allowance';
  signature text[] := string_to_array(headers ->> 'x-waitlist-signature', '.');
  age numeric := extract(epoch from clock_timestamp()) - (substring(signature[1] from '^[0-9]{1,12}$'))::bigint;
  signed text;
  secret waitlist_private.secrets;
  by_previous boolean;
  trusted boolean := signature[2] = '1';
  ceiling integer;
  at timestamptz := waitlist_private.signup_clock();
  own numeric := 0;
  ceiling_full boolean;
  mark text;
begin
  if client_key is not null
     and (client_key !~ '^[A-Za-z0-9_-]{16,128}$' or coalesce(allowance, '') !~ '^[1-9][0-9]{0,5}$') then
    raise exception using
      errcode = '22023',
      message = 'x-waitlist-client must be 16 to 128 characters of A-Z, a-z, 0-9, _ or -, '
        || 'sent with x-waitlist-allowance, a whole number of signups a minute from 1 to 999999';
  end if;

  select * into secret from waitlist_private.secrets;
  if secret.signing_secret is null then
    raise exception using
      errcode = '42501',
      message = 'Signups are closed until a signing secret is set: `npm run waitlist -- signing-secret --set` (docs/supabase.md#signing).';
  end if;
  signed := concat_ws(E'\n', signature[1], signature[2], coalesce(client_key, ''),
    coalesce(allowance, ''), new.email, new.source);
  -- Compared as HMACs under a key of the database's: in the same time, whatever matches.
  by_previous := case
    when not coalesce(cardinality(signature) = 3 and signature[2] in ('0', '1') and age between -30 and 60, false)
      then null
    when extensions.hmac(signature[3], secret.erasure_key::text, 'sha256')
       = extensions.hmac(encode(extensions.hmac(signed, secret.signing_secret, 'sha256'), 'hex'), secret.erasure_key::text, 'sha256')
      then false
    when extensions.hmac(signature[3], secret.erasure_key::text, 'sha256')
       = extensions.hmac(encode(extensions.hmac(signed, secret.previous_signing_secret, 'sha256'), 'hex'), secret.erasure_key::text, 'sha256')
      then true
  end;
  if by_previous is null then
    raise exception using
      errcode = '42501',
      message = 'Only the site adds to the waitlist: this insert is not signed by it.';
  end if;
  -- When each secret last signed, to the minute: `--retire-previous` asks.
  if by_previous and coalesce(secret.previous_signed_at < clock_timestamp() - interval '1 minute', true) then
    update waitlist_private.secrets s set previous_signed_at = clock_timestamp()
     where coalesce(s.previous_signed_at < clock_timestamp() - interval '1 minute', true);
  elsif not by_previous and coalesce(secret.signed_at < clock_timestamp() - interval '1 minute', true) then
    update waitlist_private.secrets s set signed_at = clock_timestamp()
     where coalesce(s.signed_at < clock_timestamp() - interval '1 minute', true);
  end if;

  ceiling := (select l.signups_per_minute from waitlist_private.signup_limits l);
  trusted := trusted and client_key is not null;
  -- Seen full by a plain read, the ceiling is full: what others add only adds
  -- to it. A signup that cannot take the lane over it is refused before it
  -- counts anything.
  ceiling_full := ceiling is not null and waitlist_private.recent_signups('', at) >= ceiling;
  if ceiling_full and not (trusted and waitlist_private.recent_signups('lane', at) < ceiling) then
    perform waitlist_private.over_ceiling(ceiling);
  end if;
  if client_key is not null then
    own := waitlist_private.count_signup(client_key, at, allowance::integer);
    if own is null then
      raise sqlstate 'PT429' using
        message = format('Too many signups from this client: at most %s a minute', allowance),
        detail = 'client_allowance',
        hint = 'Try again in a minute.';
    end if;
  end if;
  if ceiling is not null and not ceiling_full then
    ceiling_full := waitlist_private.count_signup('', at, ceiling) is null;
  end if;
  if ceiling_full and not (trusted and own < 2 and waitlist_private.count_signup('lane', at, ceiling) is not null) then
    perform waitlist_private.over_ceiling(ceiling);
  end if;

  -- Rows another signup is deleting are left to it: no signup waits here.
  delete from waitlist_private.signup_counts c
   where c.ctid = any (array(
     select s.ctid from waitlist_private.signup_counts s
      where s.minute < date_trunc('minute', at, 'UTC') - interval '1 minute'
      order by s.minute
      limit 2
        for update skip locked
   ));
  perform waitlist_private.at_read_committed();
  mark := waitlist_private.email_hash(new.email);
  update waitlist_private.erasures e set held_back_at = clock_timestamp()
   where e.email_hash = mark and coalesce(e.held_back_at < e.erased_at, true);
  if found then
    return null;
  end if;
  if exists (select from waitlist_private.erasures e where e.email_hash = mark) then
    -- As the table's unique index refuses a listed address to the public role.
    raise exception using
      errcode = '23505',
      message = 'duplicate key value violates unique constraint "waitlist_email_lower_key"',
      schema = 'public', table = 'waitlist', constraint = 'waitlist_email_lower_key';
  end if;
  return new;
end;
$$;

-- For every role but the one this runs as, the tables' owner (the condition
-- is the inserting role's, outside the function, which runs as its owner):
-- a role granted INSERT later meets every rule too. Before the row is
-- written, so a refused signup costs no write to the table.
do $$
begin
  execute format('create trigger limit_signups before insert on public.waitlist for each row
    when (current_user <> %L) execute function waitlist_private.admit_signup()', current_user);
end
$$;
