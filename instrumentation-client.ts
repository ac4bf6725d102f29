import { installActionDeadline } from '@/components/waitlist/action-deadline'

// Runs in the browser before the page hydrates: no signup is ever sent without its deadline.
installActionDeadline()
