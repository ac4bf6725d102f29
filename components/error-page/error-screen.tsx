import { MessagePage } from '@/components/ui/message-page'
import { errorPage } from '@/lib/site'
import { LogPageError, type PageError } from './log-page-error'

/** What a visitor sees when a page cannot be shown: the site's look, its words for a failure, a way home. */
export function ErrorScreen({ error }: { error: PageError }) {
  return (
    <MessagePage
      heading={errorPage.title}
      headingSize="text-4xl sm:text-5xl"
      message={errorPage.message}
      homeLink={errorPage.homeLink}
    >
      <LogPageError error={error} />
    </MessagePage>
  )
}
