import { describe, expect, it } from 'vitest'
import { noticeFor } from '@/lib/waitlist/notice'

const id = 'submission-1'

describe('noticeFor', () => {
  it('welcomes a new signup', () => {
    expect(noticeFor({ status: 'joined', submissionId: id })).toEqual({
      tone: 'success',
      title: 'Welcome to the waitlist!',
      description: "You'll be among the first to experience the product.",
    })
  })

  it('tells a returning visitor they are already on the list', () => {
    expect(noticeFor({ status: 'already_joined', submissionId: id })).toEqual({
      tone: 'info',
      title: 'Already on the list!',
      description: 'This email is already registered for early access.',
    })
  })

  it('gives the generic destructive notice for any failure', () => {
    expect(noticeFor({ status: 'error', submissionId: id, email: 'a@b.co' })).toEqual({
      tone: 'destructive',
      title: 'Something went wrong',
      description: 'Please try again later.',
    })
  })

  it('asks to check a refused address, destructively', () => {
    const notice = noticeFor({ status: 'invalid', field: 'email', submissionId: id, email: 'x' })
    expect(notice.tone).toBe('destructive')
    expect(notice.title).toBe('Please check your email address')
  })

  it('answers a forged source with the generic notice', () => {
    const notice = noticeFor({ status: 'invalid', field: 'source', submissionId: id, email: '' })
    expect(notice.title).toBe('Something went wrong')
  })

  it('asks a client over the rate limit to try again in a minute, destructively', () => {
    const notice = noticeFor({ status: 'rate_limited', submissionId: id, email: 'a@b.co' })
    expect(notice).toEqual({
      tone: 'destructive',
      title: 'Too many attempts',
      description: 'Please try again in a minute.',
    })
  })
})
