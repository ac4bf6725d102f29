// The signup as a browser without JavaScript sends it: React's hidden `$ACTION_*` fields and the
// visitor's, as multipart/form-data, to the form's page; for e2e tests with servers of their own.
import { notices } from '../../lib/site'

export type Field = readonly [name: string, value: string]

export type SignupForm = {
  /** The page the form posts to (its `action` is empty: the same URL). */
  url: string
  /** Every hidden field the form renders, `source` included. */
  hidden: Field[]
}

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', lt: '<', gt: '>', '#39': "'" }

function decode(text: string): string {
  return text.replace(/&(amp|quot|lt|gt|#39);/g, (_, name: string) => ENTITIES[name] ?? '')
}

/** Reads the hero's form on `url` from the served HTML. */
export async function readSignupForm(url: string): Promise<SignupForm> {
  const html = await (await fetch(url)).text()
  for (const [form] of html.matchAll(/<form\b[\s\S]*?<\/form>/g)) {
    const hidden: Field[] = []
    for (const [input] of form.matchAll(/<input\b[^>]*type="hidden"[^>]*>/g)) {
      const name = /\bname="([^"]*)"/.exec(input)?.[1]
      const value = /\bvalue="([^"]*)"/.exec(input)?.[1] ?? ''
      if (name) hidden.push([decode(name), decode(value)])
    }
    if (hidden.some(([name, value]) => name === 'source' && value === 'hero_section')) {
      return { url, hidden }
    }
  }
  throw new Error(`No hero waitlist form on ${url}`)
}

export type PostOptions = {
  /** Replaces the form's own fields of the same names. */
  fields?: readonly Field[]
  headers?: Record<string, string>
}

export type PostResult = { status: number; outcome: Outcome }

export type Outcome = 'joined' | 'already_joined' | 'error' | 'unknown'

/** The notice each outcome puts in the page's status region, checked most specific first. */
const outcomeTexts: [Outcome, string][] = [
  ['joined', notices.joined.title],
  ['already_joined', notices.already_joined.title],
  ['error', notices.error.title],
]

function outcomeOf(body: string): Outcome {
  // The words sit in a <span>, there only in the form that has an outcome (components/waitlist/waitlist-form.tsx).
  const said = decode(/<p role="status"[^>]*><span>([^<]*)<\/span><\/p>/.exec(body)?.[1] ?? '')
  return outcomeTexts.find(([, title]) => said.startsWith(title))?.[0] ?? 'unknown'
}

export async function postSignup(form: SignupForm, options: PostOptions = {}): Promise<PostResult> {
  const overridden = new Set((options.fields ?? []).map(([name]) => name))
  const body = new FormData()
  for (const [name, value] of form.hidden) {
    if (!overridden.has(name)) body.append(name, value)
  }
  for (const [name, value] of options.fields ?? []) body.append(name, value)
  const response = await fetch(form.url, {
    method: 'POST',
    body,
    headers: { origin: new URL(form.url).origin, ...options.headers },
    redirect: 'manual',
  })
  return { status: response.status, outcome: outcomeOf(await response.text()) }
}
