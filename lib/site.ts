// Every word and number the site shows, its notices too, so copy changes never touch JSX.
export const site = {
  name: 'Collably',
  tagline: 'Where creators and brands grow together',
  footerYear: 2024,
} as const

export const hero = {
  eyebrow: 'Early access is opening soon',
  headline: 'Where creators and brands',
  headlineAccent: 'grow together',
  pitch:
    'Matched by audience, niche and engagement. Briefs and deals in one inbox, payments held in escrow and released by milestone, and analytics that show what every campaign earned.',
  stats: [
    { value: '10,000+', label: 'Creators' },
    { value: '500+', label: 'Brands' },
  ],
} as const

/** lib/seo.ts makes the title and the share card's text of these words and the ones above. */
export const seo = {
  description:
    'Collably matches creators and brands by audience and engagement, with briefs, escrow payments and analytics in one place. Join the early-access waitlist.',
  themeColor: '#0b0616',
} as const

/**
 * One record per form; the table takes the sources its CHECK lists, so a new one needs a migration.
 * The button's width fits either label in Geist or its fallback: nothing moves as Geist arrives.
 */
export const waitlistForms = {
  hero: {
    source: 'hero_section',
    heading: 'Get VIP Early Access',
    intro: 'Be first in when the doors open, with founding-member perks for creators and brands.',
    placeholder: 'Enter your email address',
    submitLabel: 'Join the Revolution',
    busyLabel: 'Joining...',
    buttonWidth: '14.5rem',
  },
  cta: {
    source: 'cta_section',
    placeholder: 'Your email address',
    submitLabel: 'Get VIP Access',
    busyLabel: 'Joining the Revolution...',
    buttonWidth: '17rem',
  },
} as const

export type WaitlistFormName = keyof typeof waitlistForms

export const everyForm = {
  emailLabel: 'Email address',
  promise: 'No spam, unsubscribe anytime.',
} as const

export const features = {
  title: 'Everything You Need to Succeed Together',
  intro: 'One place to find the right partners, agree on the work and get paid for it.',
  cards: [
    {
      icon: 'sparkles',
      title: 'Smart Matching',
      body: 'Find the right partners by audience, niche and engagement, not follower counts alone.',
    },
    {
      icon: 'messages',
      title: 'Seamless Communication',
      body: 'Briefs, deals and feedback in built-in messaging, without the email chains.',
    },
    {
      icon: 'shield',
      title: 'Secure Payments',
      body: 'Escrow holds every budget and releases it milestone by milestone.',
    },
    {
      icon: 'badge',
      title: 'Verified Profiles',
      body: 'Every creator and brand is verified, so you know who you are working with.',
    },
    {
      icon: 'chart',
      title: 'Campaign Analytics',
      body: 'Reach, engagement and results for every campaign, in one dashboard.',
    },
    {
      icon: 'zap',
      title: 'Quick Setup',
      body: 'Create your profile in minutes and start collaborating the same day.',
    },
  ],
} as const

export type FeatureIcon = (typeof features.cards)[number]['icon']

export const callToAction = {
  heading: 'Ready to grow together?',
  body: 'Join the waitlist today and be the first to collaborate when the doors open.',
} as const

export const notFound = {
  /** The tab's title: the page is not the home page, and must not say it is. */
  title: `Page not found · ${site.name}`,
  code: '404',
  message: 'Oops! Page not found',
  homeLink: 'Return to Home',
} as const

export const REVEAL_VISIBILITY_THRESHOLD = 0.1

/** What a signup ends in, in a toast (a tone is sonner's method) and the form's status line. */
export const notices = {
  joined: {
    tone: 'success',
    title: 'Welcome to the waitlist!',
    description: "You'll be among the first to experience the product.",
  },
  already_joined: {
    tone: 'info',
    title: 'Already on the list!',
    description: 'This email is already registered for early access.',
  },
  error: {
    tone: 'error',
    title: 'Something went wrong',
    description: 'Please try again later.',
  },
} as const

export type Notice = (typeof notices)[keyof typeof notices]

/** A notice as the status line reads it: "Something went wrong. Please try again later." */
export function statusText({ title, description }: Notice): string {
  const sentence = /[.!?]$/.test(title) ? title : `${title}.`
  return `${sentence} ${description}`
}
