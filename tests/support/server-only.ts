// `server-only` throws when imported outside React's server condition; Vitest runs modules as plain Node.
export {}
