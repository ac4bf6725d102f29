// Without its own instrumentation file, `next build bench/minimal` picks up the site's one.
export function register(): void {}
