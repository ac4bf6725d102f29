-- An address erased on request (`npm run waitlist -- remove`) stays erased:
-- a later import of an older list skips it unless the operator names it.
-- What is kept to remember it is a keyed hash (the key in
-- waitlist_private.secrets, which never leaves the database), never the
-- address. A person who signs up again through the site has asked to be on
-- the list: their signup clears the mark.

create table waitlist_private.erasures (
  email_hash text primary key,
  erased_at timestamptz not null default now()
);
comment on table waitlist_private.erasures is
  'Addresses erased on request, as keyed hashes, so that an import does not add them back.';
revoke all on waitlist_private.erasures from public, anon, authenticated;

create function waitlist_private.email_hash(email text)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select encode(extensions.hmac(convert_to(lower(trim(email)), 'UTF8'), s.erasure_key, 'sha256'), 'hex')
    from waitlist_private.secrets s
$$;

revoke all on function waitlist_private.email_hash(text) from public, anon, authenticated;
grant execute on function waitlist_private.email_hash(text) to service_role;

-- For the public roles' inserts only (the trigger below): an import never clears a mark by itself.
create function waitlist_private.clear_erasure(email text)
returns void
language sql
volatile
security definer
set search_path = ''
as $$
  delete from waitlist_private.erasures e where e.email_hash = waitlist_private.email_hash(email)
$$;

revoke all on function waitlist_private.clear_erasure(text) from public;
grant execute on function waitlist_private.clear_erasure(text) to anon, authenticated;

create function waitlist_private.forget_erasure()
returns trigger
language plpgsql
security invoker
set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') then
    perform waitlist_private.clear_erasure(new.email);
  end if;
  return new;
end;
$$;

revoke all on function waitlist_private.forget_erasure() from public;

create trigger forget_erasure
  before insert on public.waitlist
  for each row execute function waitlist_private.forget_erasure();
