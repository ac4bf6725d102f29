/**
 * A process that has a data folder's database open, as a running site has,
 * until SIGTERM: `open-folder.ts <folder>`. It prints `open` once it serves
 * the folder, and `closed` once it has let go of it.
 */
import { openFolder } from '../../lib/waitlist/data-folder'

const folder = await openFolder(process.argv[2]!)
console.log(folder.pglite ? 'open' : 'not the owner')
process.once('SIGTERM', () => void folder.close().then(() => console.log('closed')))
