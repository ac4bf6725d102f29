/** A process that claims a data folder and holds it until killed: `claim-folder.ts <folder>`. */
import { claimFolder } from '../../lib/waitlist/data-folder'

const claim = await claimFolder(process.argv[2]!)
console.log('release' in claim ? `won ${process.pid}` : `lost to ${claim.who}`)
// Held while the process lives: the operating system lets go when it ends, however it ends.
setInterval(() => {}, 60_000)
