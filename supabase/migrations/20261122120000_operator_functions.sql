-- What the operators' commands (`npm run waitlist -- stats` and `import`) ask
-- of the database that the REST data service cannot express: figures
-- computed where the rows are, and an insert that skips any address already
-- on the list, whatever its case. Both run with the caller's rights (security
-- invoker), and only the service role may call them: with the public key
-- both are refused, like every read.

create or replace function public.waitlist_stats(days integer default 14)
returns json
language plpgsql
stable
security invoker
set search_path = ''
set timezone = 'UTC'
as $$
begin
  if days is null or days < 1 or days > 3660 then
    raise exception 'days must be a whole number from 1 to 3660, not %', days
      using errcode = '22023';
  end if;
  return (
    with per_day as (
      -- One pass over the table, grouped by UTC day and source: a few rows
      -- per day of signups, however long the list.
      select (w.created_at at time zone 'UTC')::date as day,
             w.source,
             count(*) as signups,
             min(w.created_at) as first_at,
             max(w.created_at) as latest_at
        from public.waitlist w
       group by 1, 2
    ),
    shown as (
      select d::date as day
        from generate_series(
          (now() at time zone 'UTC')::date - (days - 1),
          (now() at time zone 'UTC')::date,
          interval '1 day'
        ) as d
    )
    select json_build_object(
      'total', coalesce((select sum(p.signups) from per_day p), 0),
      'by_source', coalesce(
        (select json_object_agg(s.source, s.signups order by s.source)
           from (select p.source, sum(p.signups) as signups from per_day p group by p.source) s),
        '{}'::json
      ),
      'first_signup_at', (select min(p.first_at) from per_day p),
      'latest_signup_at', (select max(p.latest_at) from per_day p),
      'days', (
        select json_agg(json_build_object('day', d.day, 'signups', d.signups) order by d.day)
          from (
            select shown.day, coalesce(sum(p.signups), 0) as signups
              from shown
              left join per_day p on p.day = shown.day
             group by shown.day
          ) d
      )
    )
  );
end;
$$;

comment on function public.waitlist_stats(integer) is
  'Signup figures for the operators: total, per source, per UTC day for the last `days` days, first and latest signup.';

-- Rows are given as a JSON array of {email, source, created_at?}, inserted in
-- the array's order; an address already on the list (in any case) is skipped.
-- Returns how many rows were added. A row the table's rules refuse fails the
-- whole call, so the caller can find it and report it.
create or replace function public.waitlist_import(entries json)
returns integer
language sql
volatile
security invoker
set search_path = ''
as $$
  with added as (
    insert into public.waitlist (email, source, created_at)
    select r.email, r.source, coalesce(r.created_at, now())
      from rows from (
        json_to_recordset(entries) as (email text, source text, created_at timestamptz)
      ) with ordinality as r(email, source, created_at, position)
     order by r.position
    on conflict do nothing
    returning 1
  )
  select count(*)::integer from added;
$$;

comment on function public.waitlist_import(json) is
  'Adds signups from a backup or another store, skipping addresses already on the list; returns how many were added.';

-- New functions are executable by everyone (PUBLIC), and Supabase also grants
-- them to anon and authenticated by default: take all of that back.
revoke all on function public.waitlist_stats(integer) from public, anon, authenticated;
revoke all on function public.waitlist_import(json) from public, anon, authenticated;
grant execute on function public.waitlist_stats(integer) to service_role;
grant execute on function public.waitlist_import(json) to service_role;
