'use client'

export { ErrorScreen as default } from '@/components/ui/error-screen'
