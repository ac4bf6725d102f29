-- Only the site adds to the list, once the operator has set a signing secret.
--
-- The site's server signs what its one insert request says about the
-- visitor (x-waitlist-client, x-waitlist-allowance) together with the row,
-- in `x-waitlist-signature: <unix time>.<trusted>.<hex HMAC-SHA-256>`, the
-- HMAC over the time, the trusted flag, the client, the allowance, the
-- address and the source, one a line. With a secret set, an insert from the
-- public roles that is not signed by it, or signed more than five minutes
-- ago, is refused (42501) before any limit counts it: a row straight from
-- someone holding the public key, a batch, forged or altered headers alike.
-- Without one the database behaves as before, and `npm run waitlist -- check`
-- warns that anyone holding the public key can add to the list.
--
-- A signed request also says whether the client's address can be trusted (it
-- came from Vercel's edge or a declared proxy): such a client's first signup
-- in a minute is admitted even when the ceiling is full, so no flood shuts a
-- real visitor out; a flood from K addresses stores at most the ceiling plus
-- K a minute. Unsigned, the ceiling is as hard as before.
--
-- The public roles insert one row at a time (the site never sends more), and
-- the address rule is the HTML standard's, as `<input type="email">` has it.

create schema if not exists extensions;
create extension if not exists pgcrypto with schema extensions;

create table waitlist_private.secrets (
  only_row boolean primary key default true check (only_row),
  signing_secret text check (char_length(signing_secret) >= 32),
  -- Keys the hashes that remember erased addresses (a later migration); never leaves the database.
  erasure_key bytea not null default extensions.gen_random_bytes(32)
);
comment on table waitlist_private.secrets is
  'One row: the secret the site signs its inserts with (null: none set), and the key of erasure hashes.';
insert into waitlist_private.secrets default values;
revoke all on waitlist_private.secrets from public, anon, authenticated;

create function waitlist_private.set_signing_secret(secret text)
returns void
language sql
volatile
security definer
set search_path = ''
as $$ update waitlist_private.secrets set signing_secret = secret $$;

comment on function waitlist_private.set_signing_secret(text) is
  'Sets the secret the site signs its inserts with (WAITLIST_SIGNING_SECRET); for the owner and the service role.';
revoke all on function waitlist_private.set_signing_secret(text) from public, anon, authenticated;
grant usage on schema waitlist_private to service_role;
grant execute on function waitlist_private.set_signing_secret(text) to service_role;

-- Null while no secret is set; else whether the signed request vouches for the
-- client's address. Refuses (42501) an insert the secret did not sign.
create function waitlist_private.signed_trust(
  email text, source text, client_key text, allowance text, signature text
)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  secret text := (select s.signing_secret from waitlist_private.secrets s);
  parts text[] := string_to_array(coalesce(signature, ''), '.');
begin
  if secret is null then
    return null;
  end if;
  if cardinality(parts) = 3
     and parts[1] ~ '^[0-9]{1,12}$'
     and parts[2] in ('0', '1')
     and abs(extract(epoch from clock_timestamp()) - parts[1]::bigint) <= 300
     and parts[3] = encode(extensions.hmac(
       concat_ws(E'\n', parts[1], parts[2], coalesce(client_key, ''), coalesce(allowance, ''), email, source),
       secret, 'sha256'), 'hex') then
    return parts[2] = '1';
  end if;
  raise exception using
    errcode = '42501',
    message = 'Only the site adds to the waitlist: this insert is not signed by it.';
end;
$$;

revoke all on function waitlist_private.signed_trust(text, text, text, text, text) from public;
grant execute on function waitlist_private.signed_trust(text, text, text, text, text) to anon, authenticated;

drop trigger limit_signups on public.waitlist;
drop function waitlist_private.limit_signups();
drop function waitlist_private.admit_signup(text, integer);

-- As before, with one exception to the ceiling: a trusted client's first signup of the minute.
create function waitlist_private.admit_signup(client_key text, allowance integer, trusted boolean)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  ceiling integer := coalesce((select l.signups_per_minute from waitlist_private.signup_limits l), 600);
  now_at timestamptz;
  own integer := 0;
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
  delete from waitlist_private.recent_signups r where r.admitted_at <= now_at - interval '1 minute';

  if client_key is not null then
    select count(*) into own
      from waitlist_private.recent_signups r
     where r.client_key = admit_signup.client_key and r.admitted_at > now_at - interval '1 minute';
    if own >= allowance then
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
    if admitted >= ceiling and not (coalesce(trusted, false) and own = 0) then
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

revoke all on function waitlist_private.admit_signup(text, integer, boolean) from public;
grant execute on function waitlist_private.admit_signup(text, integer, boolean) to anon, authenticated;

create function waitlist_private.limit_signups()
returns trigger
language plpgsql
security invoker
set search_path = ''
as $$
declare
  headers json := nullif(current_setting('request.headers', true), '')::json;
  client_key text := headers ->> 'x-waitlist-client';
  allowance text := headers ->> 'x-waitlist-allowance';
  trusted boolean;
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
  trusted := waitlist_private.signed_trust(new.email, new.source, client_key, allowance, headers ->> 'x-waitlist-signature');
  perform waitlist_private.admit_signup(client_key, allowance::integer, trusted);
  return new;
end;
$$;

revoke all on function waitlist_private.limit_signups() from public;

create trigger limit_signups
  before insert on public.waitlist
  for each row execute function waitlist_private.limit_signups();

-- After the rows, so it sees them all; its refusal undoes the whole statement.
create function waitlist_private.one_signup_at_a_time()
returns trigger
language plpgsql
security invoker
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') and (select count(*) from added) > 1 then
    raise exception using errcode = '42501', message = 'The waitlist takes one signup at a time.';
  end if;
  return null;
end;
$$;

revoke all on function waitlist_private.one_signup_at_a_time() from public;

create trigger one_signup_at_a_time
  after insert on public.waitlist
  referencing new table as added
  for each statement execute function waitlist_private.one_signup_at_a_time();

-- The HTML standard's rule for an e-mail address, lower-cased as the site stores it.
-- Not valid for rows already there, which the earlier rule admitted.
alter table public.waitlist drop constraint waitlist_email_format;
alter table public.waitlist add constraint waitlist_email_format check (
  char_length(email) <= 254
  and email = lower(email)
  and email ~ '^[a-z0-9.!#$%&''*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$'
) not valid;
