/** Loads the `.env` files of the folder given, as `npm run waitlist` does, and prints what came of it. */
import { loadEnvFiles } from '../../lib/waitlist/operator/env-files'

const files = loadEnvFiles(process.argv[2]!)
console.log(JSON.stringify({ files, FROM: process.env.FROM, SHARED: process.env.SHARED }))
