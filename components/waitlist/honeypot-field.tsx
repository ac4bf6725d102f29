import { HONEYPOT_FIELD } from '@/lib/waitlist/submission'

/**
 * A field for bots only. It is moved off-screen rather than `display: none`,
 * which many bots skip; `aria-hidden` and `tabIndex={-1}` keep it away from
 * screen readers and the keyboard, and `autoComplete="off"` from autofill.
 * Any value in it makes the server answer as a success and store nothing.
 */
export function HoneypotField({ id }: { id: string }) {
  return (
    <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
      <label htmlFor={id}>Leave this field empty</label>
      <input id={id} type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" />
    </div>
  )
}
