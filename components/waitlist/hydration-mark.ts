/**
 * How a form tells the early-submit holder (early-submit-holder.tsx) about
 * itself: rendered with {@link HOLD_SUBMIT_ATTRIBUTE}, it asks for a submit
 * sent before hydration to be held; its ref sets {@link HYDRATED_ATTRIBUTE}
 * once React has hydrated it. Refs are attached in the same task as the
 * hydration commit, so no submit falls between the two.
 */
export const HOLD_SUBMIT_ATTRIBUTE = 'data-hold-submit'
export const HYDRATED_ATTRIBUTE = 'data-hydrated'

function markHydrated(form: HTMLFormElement | null): void {
  form?.setAttribute(HYDRATED_ATTRIBUTE, '')
}

/** Both halves, for a form to spread: `<form {...holdEarlySubmit} …>`. */
export const holdEarlySubmit = { [HOLD_SUBMIT_ATTRIBUTE]: '', ref: markHydrated } as const
