import { BadgeCheck, BarChart3, MessagesSquare, ShieldCheck, Sparkles, Zap } from 'lucide-react'
import type { FeatureIcon as FeatureIconName } from '@/lib/site'

const icons = {
  sparkles: Sparkles,
  messages: MessagesSquare,
  shield: ShieldCheck,
  badge: BadgeCheck,
  chart: BarChart3,
  zap: Zap,
} as const satisfies Record<FeatureIconName, unknown>

export function FeatureIcon({ name }: { name: FeatureIconName }) {
  const Icon = icons[name]
  return <Icon aria-hidden="true" className="size-6" strokeWidth={1.75} />
}
