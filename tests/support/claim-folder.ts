// Claims a data folder and holds it until killed: `claim-folder.ts <folder>`. Says `ready` once
// loaded and claims at its first stdin line, so many go at once; retries like a server when its
// rival stepped back too, then says `won <pid>`, `lost to <who>` or, after 10 s, `nobody`.
import { once } from 'node:events'
import { setTimeout as sleep } from 'node:timers/promises'
import { claimFolder, findOwner } from '../../lib/waitlist/data-folder'

const folder = process.argv[2]!
console.log('ready')
await once(process.stdin, 'data')
let said = 'nobody'
for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
  const claim = await claimFolder(folder)
  if ('release' in claim) {
    said = `won ${process.pid}`
    break
  }
  await sleep(50 + Math.random() * 150)
  const owner = await findOwner(folder)
  if (owner) {
    said = `lost to ${owner.who}`
    break
  }
}
console.log(said)
// Held while the process lives: the operating system lets go when it ends, however it ends.
setInterval(() => {}, 60_000)
