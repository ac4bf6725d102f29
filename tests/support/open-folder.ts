// Holds a data folder's database open until SIGTERM, as a running site does:
// `open-folder.ts <folder>`. Prints `open` once it serves the folder, `closed` once it has let go.
import { openFolder } from '../../lib/waitlist/data-folder'

const folder = await openFolder(process.argv[2]!)
console.log(folder.pglite ? 'open' : 'not the owner')
process.once('SIGTERM', () => void folder.close().then(() => console.log('closed')))
