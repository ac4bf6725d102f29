'use server'

import { headers } from 'next/headers'
import { clientAddress } from './client-address'
import { signupLimitsFor } from './visitor-limits'
import { joinWith } from './join'
import { getWaitlistStore } from './choose-store'
import type { WaitlistState } from './state'

/** The one action both waitlist forms post to. The form names its `source`; the server checks it. */
export async function joinWaitlist(
  _previous: WaitlistState,
  form: FormData,
): Promise<WaitlistState> {
  const address = clientAddress(await headers())
  return joinWith(form, getWaitlistStore, signupLimitsFor(address))
}
