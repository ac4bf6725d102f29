-- The early-access waitlist: the table the landing page's signups go to, and
-- the rules every way in meets.
--
-- The site inserts with the public key, which anyone can copy from a browser,
-- so the database keeps every rule itself. The public roles (anon,
-- authenticated) may insert an address and its source, one row at a time, and
-- nothing else: no read, no other schema, no function. Each of their inserts
-- meets one trigger, which checks the request's headers and signature, applies
-- the limits, and clears an erasure mark. The operator's commands (`npm run
-- waitlist`) connect as the tables' owner, whom none of this limits.

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
create policy "Visitors can join the waitlist"
  on public.waitlist
  for insert
  to anon
  with check (true);

-- What the trigger keeps. No role but the owner has any right here, so the
-- data service cannot reach it, whatever schemas it is told to expose.
create schema waitlist_private;
comment on schema waitlist_private is
  'The signup limits, the signing secrets and the erasure marks: the owner''s alone.';

-- The ceiling: at most `signups_per_minute` new signups in each minute of the
-- clock from everyone together, 600 unless changed, 0 for none. Changed at
-- once, without a redeploy:
--   update waitlist_private.signup_limits set signups_per_minute = 1200;
create table waitlist_private.signup_limits (
  only_row boolean primary key default true check (only_row),
  signups_per_minute integer not null default 600 check (signups_per_minute >= 0)
);
comment on table waitlist_private.signup_limits is
  'One row: the ceiling on new signups a minute from everyone together (0 for none).';
insert into waitlist_private.signup_limits default values;

-- The signups admitted this minute, one row per counter: '' for everyone
-- together (the ceiling), else the client's key. A counter of an earlier
-- minute starts again at its next signup; each signup deletes two stale
-- rows, so the table holds about one minute's clients however long the list.
create table waitlist_private.signup_counts (
  counted_for text primary key,
  minute timestamptz not null,
  admitted integer not null
);
create index signup_counts_minute on waitlist_private.signup_counts (minute);
comment on table waitlist_private.signup_counts is
  'Signups admitted this minute, by everyone together ('''') and by each client.';

create table waitlist_private.secrets (
  only_row boolean primary key default true check (only_row),
  -- What the site signs with; null until the operator sets one.
  signing_secret text check (char_length(signing_secret) >= 32),
  -- The secret `signing-secret --set` replaced, still accepted until
  -- `--retire-previous`, so that servers still signing with it are not refused.
  previous_signing_secret text check (char_length(previous_signing_secret) >= 32),
  -- Keys the erasure marks' hashes; never leaves the database.
  erasure_key bytea not null default extensions.gen_random_bytes(32)
);
comment on table waitlist_private.secrets is
  'One row: the signing secret (and the one it replaced, while accepted), and the key of erasure marks.';
insert into waitlist_private.secrets default values;

-- Addresses erased on request (`npm run waitlist -- remove`), as keyed
-- hashes, never the address, so that an import of an older list does not add
-- them back. A signup through the site is the person asking again: it clears
-- the mark.
create table waitlist_private.erasures (
  email_hash text primary key,
  erased_at timestamptz not null default now()
);
comment on table waitlist_private.erasures is
  'Addresses erased on request, as keyed hashes, so that an import does not add them back.';

-- The time the limits count by: a function of its own, so that a test can
-- move time on without waiting for it.
create function waitlist_private.signup_clock()
returns timestamptz
language sql
volatile
set search_path = ''
as $$ select clock_timestamp() $$;

-- For the trigger and the operator's `remove` and `import`.
create function waitlist_private.email_hash(email text)
returns text
language sql
stable
set search_path = ''
as $$
  select encode(extensions.hmac(convert_to(lower(trim(email)), 'UTF8'), s.erasure_key, 'sha256'), 'hex')
    from waitlist_private.secrets s
$$;

-- Counts one more signup for `counted_for` this minute unless `most` are
-- counted already; returns the count with it, or null when full. The row's
-- lock, held until the signup commits or fails, makes a second signup for
-- the same counter wait and then see the first's: two never both take the
-- last place. A signup that fails is not counted.
create function waitlist_private.count_signup(counted_for text, minute timestamptz, most integer)
returns integer
language sql
volatile
set search_path = ''
as $$
  insert into waitlist_private.signup_counts as c (counted_for, minute, admitted)
  values (count_signup.counted_for, count_signup.minute, 1)
  on conflict on constraint signup_counts_pkey do update
     set admitted = case when c.minute >= excluded.minute then c.admitted + 1 else 1 end,
         minute = greatest(c.minute, excluded.minute)
   where c.minute < excluded.minute or c.admitted < most
  returning c.admitted
$$;

-- The trigger on each insert from the public roles, refusing as cheaply as it
-- can: the headers' shape, then the signature, then the limits; a signup that
-- passes them all clears its address's erasure mark. A trigger rather than
-- PostgREST's db_pre_request: it meets every insert, whichever way it comes
-- (the embedded database has no PostgREST), and nothing else.
--
-- The site's server sends, with its one insert (PostgREST hands the headers
-- to SQL in `request.headers`; the embedded database sets the same):
-- * x-waitlist-client, a keyed hash of the visitor's network address (never
--   the address), and x-waitlist-allowance, the signups a minute that client
--   may make. A request that names no client meets only the ceiling.
-- * x-waitlist-signature, `<unix time>.<trusted>.<hex HMAC-SHA-256>`, the HMAC
--   over the time, the trusted flag (1: the server could trust the client's
--   address), the client, the allowance, the address and the source, one a
--   line. Once a signing secret is set, an insert not signed by it (or by the
--   secret it replaced, while that is accepted) in the last five minutes is
--   refused: a row straight from someone holding the public key, a batch,
--   forged or altered headers alike.
--
-- A trusted client's first signup of the minute is admitted even over a full
-- ceiling, so no flood shuts a real visitor out: a flood from K addresses
-- stores at most the ceiling plus K a minute. Unsigned, the ceiling is hard.
-- A refusal over a limit raises PT429 (PostgREST answers 429). Each signup
-- takes a few index lookups, however busy the minute: a full ceiling is seen
-- by a plain read, and only the signups that take a place under it wait for
-- each other, at most the ceiling's worth a minute.
create function waitlist_private.admit_signup()
returns trigger
language plpgsql
security definer
set search_path = ''
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
  signed text;
  secret waitlist_private.secrets;
  trusted boolean := false;
  ceiling integer;
  this_minute timestamptz;
  own integer := 0;
  ceiling_full boolean;
begin
  if client_key is not null
     and (client_key !~ '^[A-Za-z0-9_-]{16,128}$' or coalesce(allowance, '') !~ '^[1-9][0-9]{0,5}$') then
    raise exception using
      errcode = '22023',
      message = 'x-waitlist-client must be 16 to 128 characters of A-Z, a-z, 0-9, _ or -, '
        || 'sent with x-waitlist-allowance, a whole number of signups a minute from 1 to 999999';
  end if;

  select * into secret from waitlist_private.secrets;
  if secret.signing_secret is not null then
    signed := concat_ws(E'\n', signature[1], signature[2], coalesce(client_key, ''),
      coalesce(allowance, ''), new.email, new.source);
    -- Null, so refused, when any part is missing or wrong.
    if (cardinality(signature) = 3
        and signature[1] ~ '^[0-9]{1,12}$'
        and signature[2] in ('0', '1')
        and abs(extract(epoch from clock_timestamp()) - signature[1]::bigint) <= 300
        and signature[3] in (
          encode(extensions.hmac(signed, secret.signing_secret, 'sha256'), 'hex'),
          encode(extensions.hmac(signed, secret.previous_signing_secret, 'sha256'), 'hex')
        )) is not true then
      raise exception using
        errcode = '42501',
        message = 'Only the site adds to the waitlist: this insert is not signed by it.';
    end if;
    trusted := signature[2] = '1';
  end if;

  ceiling := coalesce((select l.signups_per_minute from waitlist_private.signup_limits l), 600);
  this_minute := date_trunc('minute', waitlist_private.signup_clock(), 'UTC');
  -- Seen full by a plain read, the ceiling stays full this minute (counts only
  -- grow): a signup that cannot be a trusted client's first is refused before
  -- it counts anything.
  ceiling_full := ceiling > 0 and exists (
    select from waitlist_private.signup_counts c
     where c.counted_for = '' and c.minute >= this_minute and c.admitted >= ceiling
  );
  if client_key is not null and (trusted or not ceiling_full) then
    own := waitlist_private.count_signup(client_key, this_minute, allowance::integer);
    if own is null then
      raise sqlstate 'PT429' using
        message = format('Too many signups from this client: at most %s a minute', allowance),
        detail = 'client_allowance',
        hint = 'Try again in a minute.';
    end if;
  end if;
  if ceiling > 0 and not ceiling_full then
    ceiling_full := waitlist_private.count_signup('', this_minute, ceiling) is null;
  end if;
  if ceiling_full and not (trusted and own = 1) then
    raise sqlstate 'PT429' using
      message = format('Too many signups: at most %s a minute from everyone together', ceiling),
      detail = 'signup_ceiling',
      hint = 'Try again in a minute.';
  end if;

  -- Rows another signup is deleting are left to it: no signup waits here.
  delete from waitlist_private.signup_counts c
   where c.ctid = any (array(
     select s.ctid from waitlist_private.signup_counts s
      where s.minute < this_minute
      order by s.minute
      limit 2
        for update skip locked
   ));
  delete from waitlist_private.erasures e where e.email_hash = waitlist_private.email_hash(new.email);
  return new;
end;
$$;

-- Before the row is written, so a refused signup costs no write to the table;
-- for the public roles only (the condition is the inserting role's, outside
-- the function, which runs as its owner).
create trigger limit_signups
  before insert on public.waitlist
  for each row
  when (current_user in ('anon', 'authenticated'))
  execute function waitlist_private.admit_signup();

-- The site never sends more than one row. After the statement, so it sees
-- them all; its refusal undoes the whole statement. It needs no rights: it
-- reads only the statement's own rows.
create function waitlist_private.one_signup_at_a_time()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if (select count(*) from added) > 1 then
    raise exception using errcode = '42501', message = 'The waitlist takes one signup at a time.';
  end if;
  return null;
end;
$$;

create trigger one_signup_at_a_time
  after insert on public.waitlist
  referencing new table as added
  for each statement
  when (current_user in ('anon', 'authenticated'))
  execute function waitlist_private.one_signup_at_a_time();

-- New functions are executable by PUBLIC: none of these is anyone's but the
-- owner's (a trigger's function needs no grant to fire).
revoke all on all functions in schema waitlist_private from public;
