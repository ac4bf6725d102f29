// @vitest-environment happy-dom
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import ErrorPage from '@/app/error'
import GlobalError from '@/app/global-error'
import { geist } from '@/components/brand/typeface'
import { errorPage, notFound } from '@/lib/site'

Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', true)

const thrown = () => Object.assign(new Error('the page threw'), { digest: '4021931' })

/** Mounts `element` in the DOM, effects and all, and returns what console.error was given. */
async function mount(element: React.ReactElement) {
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
  const container = document.createElement('div')
  document.body.append(container)
  const root = createRoot(container)
  await act(async () => root.render(element))
  return { container, logged, unmount: () => act(() => root.unmount()) }
}

afterEach(() => {
  vi.restoreAllMocks()
  document.body.replaceChildren()
})

describe('app/error.tsx', () => {
  it('says the site’s words for a failure in the site’s look, with a full load of / to go back', async () => {
    const { container, unmount } = await mount(<ErrorPage error={thrown()} />)
    expect(container.querySelector('main h1')?.textContent).toBe(errorPage.title)
    expect(container.querySelector('main')?.textContent).toContain(errorPage.message)
    expect(container.querySelector('main')?.textContent).toContain('Collably')
    const home = container.querySelector('a')
    expect(home?.getAttribute('href')).toBe('/')
    expect(home?.textContent).toBe(notFound.homeLink)
    await unmount()
  })

  it('logs the error, with the digest that finds its line in the server log', async () => {
    const error = thrown()
    const { logged, unmount } = await mount(<ErrorPage error={error} />)
    expect(logged).toHaveBeenCalledWith(expect.stringContaining('server log digest 4021931'), error)
    await unmount()
  })
})

describe('app/global-error.tsx', () => {
  it('brings its own document, titled, unindexed, in the page’s face, with the same words and way home', () => {
    const html = renderToStaticMarkup(<GlobalError error={thrown()} />)
    expect(html).toMatch(new RegExp(`^<html lang="en" class="${geist.variable}"><head>`))
    expect(html).toContain(`<title>${errorPage.title} | Collably</title>`)
    expect(html).toContain('<meta name="robots" content="noindex"/>')
    expect(html).toMatch(new RegExp(`<h1[^>]*>${errorPage.title}</h1>`))
    expect(html).toMatch(new RegExp(`<a href="/"[^>]*>${notFound.homeLink}</a>`))
  })

  it('logs the error', async () => {
    const error = new Error('the layout threw')
    const { logged, unmount } = await mount(<GlobalError error={error} />)
    expect(logged).toHaveBeenCalledWith(expect.stringContaining('could not be shown'), error)
    await unmount()
  })
})
