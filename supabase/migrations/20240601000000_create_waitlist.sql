-- The early-access waitlist.
--
-- The page reaches this table with the public (anon) key, which anyone can
-- copy from the browser, so the table itself holds every rule: the shape of
-- an address, the known sources, one row per person, and insert-only access.
-- Safe to run again on a database that already has it.

create table if not exists public.waitlist (
  id bigint generated always as identity primary key,
  email text not null,
  source text not null,
  created_at timestamptz not null default now(),

  -- Trimmed, lower-case, at most 254 characters, exactly one "@" with a dot
  -- in the domain, and no whitespace or control characters anywhere.
  constraint waitlist_email_format check (
    char_length(email) <= 254
    and email = lower(email)
    and email ~ '^[^@[:space:][:cntrl:]]+@[^@[:space:][:cntrl:]]+\.[^@[:space:][:cntrl:]]+$'
  ),
  constraint waitlist_source_known check (source in ('hero_section', 'cta_section'))
);

comment on table public.waitlist is 'Early-access signups from the landing page.';
comment on column public.waitlist.source is 'Which form the visitor used: hero_section or cta_section.';

-- One row per person, whatever the case a client sent.
create unique index if not exists waitlist_email_lower_key on public.waitlist (lower(email));

-- Supabase grants every new public table to anon and authenticated by
-- default. Take all of it back, then give anon the one thing it needs:
-- inserting an address and its source. id and created_at stay the table's.
revoke all on table public.waitlist from anon, authenticated;
grant insert (email, source) on table public.waitlist to anon;

alter table public.waitlist enable row level security;

-- No select, update or delete policy exists, so with the public key nobody
-- can read, count, change or remove an address. The CHECK constraints above
-- hold the rules for what may be inserted.
drop policy if exists "Visitors can join the waitlist" on public.waitlist;
create policy "Visitors can join the waitlist"
  on public.waitlist
  for insert
  to anon
  with check (true);
