import type { Metadata } from 'next'
import { LogNotFound } from '@/components/ui/log-not-found'
import { MessagePage } from '@/components/ui/message-page'
import { notFound } from '@/lib/site'

export const metadata: Metadata = { title: notFound.title }

export default function NotFound() {
  return (
    <MessagePage heading={notFound.code} headingSize="text-8xl" message={notFound.message}>
      <LogNotFound />
    </MessagePage>
  )
}
