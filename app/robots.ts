export { robotsRules as default } from '@/lib/seo'
