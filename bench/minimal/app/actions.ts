'use server'

export async function join(_previous: string, form: FormData): Promise<string> {
  return form.get('email') ? 'Welcome to the waitlist!' : 'Please enter your email address.'
}
