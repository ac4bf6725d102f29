import type { Metadata } from 'next'

export const metadata: Metadata = {
  title: 'Minimal page',
  description: 'The floor the landing page is measured against: one heading and one form.',
}

export default function RootLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  )
}
